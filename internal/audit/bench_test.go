package audit

import (
	"bytes"
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
	tb.Helper()
	var seg bytes.Buffer
	n := 0
	for i := 0; int64(seg.Len()) < SegmentLimit; i++ {
		line, err := realistic(i).normalize(time.Now()).line()
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
