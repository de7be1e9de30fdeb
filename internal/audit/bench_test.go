package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// realistic is a typical trace record (about 300 bytes).
func realistic(i int) Record {
	return Record{
		Event: EventPostToolUse, Success: new(true), ExecutionStarted: new(true),
		ExecutionOutcome: Succeeded, ResultStatus: new("completed"),
		SessionID: "0f8e2d4c-6b1a-4e5f-9c3d-2a7b8e9f0a1b", ToolName: "mcp__plugin_windows-dev-agent_windows-dev-agent__capability_run",
		ToolUseID: "toolu_01ABCDEFGHIJKLMNOPQRSTUV" + itoa(i%10), DurationMS: new(1234.5), ErrorPresent: new(false),
	}
}

// FillFullSegments writes agent.log.1 and agent.log at exactly the rotation point: each
// holds as many realistic records as one segment takes before it rotates (about 2 MiB).
func fillFullSegments(tb testing.TB, dir string) int {
	return fillSessions(tb, dir, func(int) string { return realistic(0).SessionID })
}

// fillSessions is fillFullSegments with record i in session session(i).
func fillSessions(tb testing.TB, dir string, session func(i int) string) int {
	tb.Helper()
	var seg bytes.Buffer
	n := 0
	for i := 0; int64(seg.Len()) < SegmentLimit; i++ {
		r := realistic(i)
		r.SessionID = session(i)
		line, err := r.normalize(time.Now()).line()
		if err != nil {
			tb.Fatal(err)
		}
		seg.Write(line)
		n++
	}
	for _, name := range []string{PrevName, LogName} {
		if err := os.WriteFile(filepath.Join(dir, name), seg.Bytes(), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return 2 * n
}

// BenchmarkAppend is one locked append (open lock, flock, stat, append, close) of a
// realistic record, rotation included as the log fills.
func BenchmarkAppend(b *testing.B) {
	dir := b.TempDir()
	r := realistic(0)
	b.ReportAllocs()
	for b.Loop() {
		if err := Append(dir, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadFull reads and parses two full 2 MiB segments: the work behind every
// logs_query and Stop report at the retention bound.
func BenchmarkReadFull(b *testing.B) {
	dir := b.TempDir()
	want := fillFullSegments(b, dir)
	b.SetBytes(2 * SegmentLimit)
	b.ReportAllocs()
	for b.Loop() {
		evs, _ := Read(dir)
		if len(evs) != want {
			b.Fatalf("read %d records, want %d", len(evs), want)
		}
	}
}

// BenchmarkReadSession is the Stop hook's read at the retention bound: two full 2 MiB
// segments (about 13,600 records), reading one session's records. "floor" only reads
// the bytes of one snapshot, the least any reader does; "decode-all" is the reader
// before the byte filter (decode every record, then compare), kept as the oracle of
// TestReadSessionGolden. Two logs: "1pct", where the session owns one record in a
// hundred (a session among many), and "all", where every record is the session's, the
// worst case, in which the filter can skip nothing.
func BenchmarkReadSession(b *testing.B) {
	const sid = "0f8e2d4c-6b1a-4e5f-9c3d-2a7b8e9f0a1b"
	logs := []struct {
		name    string
		session func(int) string
	}{
		{"1pct", func(i int) string {
			if i%100 == 0 {
				return sid
			}
			return fmt.Sprintf("%08x-6b1a-4e5f-9c3d-2a7b8e9f0a1b", i)
		}},
		{"all", func(int) string { return sid }},
	}
	for _, lg := range logs {
		dir := b.TempDir()
		fillSessions(b, dir, lg.session)
		want, err := readSessionOracle(dir, sid)
		if err != nil || len(want) == 0 {
			b.Fatal(err)
		}
		b.Run(lg.name+"/floor", func(b *testing.B) {
			b.SetBytes(2 * SegmentLimit)
			b.ReportAllocs()
			for b.Loop() {
				if segs, _ := readRetained(dir, openRead); len(segs) != 2 {
					b.Fatal("no snapshot")
				}
			}
		})
		b.Run(lg.name+"/filtered", func(b *testing.B) {
			b.SetBytes(2 * SegmentLimit)
			b.ReportAllocs()
			for b.Loop() {
				if evs, _ := ReadSession(dir, sid); len(evs) != len(want) {
					b.Fatalf("%d records, want %d", len(evs), len(want))
				}
			}
		})
		b.Run(lg.name+"/decode-all", func(b *testing.B) {
			b.SetBytes(2 * SegmentLimit)
			b.ReportAllocs()
			for b.Loop() {
				if evs, _ := readSessionOracle(dir, sid); len(evs) != len(want) {
					b.Fatalf("%d records, want %d", len(evs), len(want))
				}
			}
		})
	}
}

// BenchmarkAppendWhileReading is BenchmarkAppend with a reader looping over the whole
// retained log (two full segments at the start) in the background: what a hook's
// append costs while logs_query or a Stop hook reads. Readers take no lock, so this
// should match BenchmarkAppend; when readers held the lock for their whole read, each
// append waited for the read in progress, and some gave up.
func BenchmarkAppendWhileReading(b *testing.B) {
	dir := b.TempDir()
	fillFullSegments(b, dir)
	r := realistic(0)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			_, _ = Read(dir)
		}
	}()
	b.ReportAllocs()
	for b.Loop() {
		if err := Append(dir, r); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	<-done
}

// BenchmarkStopSummary is the Stop hook's work after start-up at the retention bound:
// SessionSummary of one session, which owns one record in a hundred of about 13,600
// ("1pct") or all of them ("all"); "decoded" is the same with whole records
// (Summarize of ReadSession), the way it was read before SessionSummary.
func BenchmarkStopSummary(b *testing.B) {
	const sid = "0f8e2d4c-6b1a-4e5f-9c3d-2a7b8e9f0a1b"
	for _, lg := range []struct {
		name  string
		every int
	}{{"1pct", 100}, {"all", 1}} {
		dir := b.TempDir()
		fillSessions(b, dir, func(i int) string {
			if i%lg.every == 0 {
				return sid
			}
			return fmt.Sprintf("%08x-6b1a-4e5f-9c3d-2a7b8e9f0a1b", i)
		})
		b.Run(lg.name, func(b *testing.B) {
			b.SetBytes(2 * SegmentLimit)
			b.ReportAllocs()
			for b.Loop() {
				if s, _, _ := SessionSummary(dir, sid); s.TotalEvents == 0 {
					b.Fatal("empty summary")
				}
			}
		})
		b.Run(lg.name+"/decoded", func(b *testing.B) {
			b.SetBytes(2 * SegmentLimit)
			b.ReportAllocs()
			for b.Loop() {
				evs, _ := ReadSession(dir, sid)
				if s := Summarize(evs); s.TotalEvents == 0 {
					b.Fatal("empty summary")
				}
			}
		})
	}
}
