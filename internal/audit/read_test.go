package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func writeSeg(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func ids(evs []map[string]any) []string {
	out := []string{}
	for _, ev := range evs {
		s, _ := ev["id"].(string)
		out = append(out, s)
	}
	return out
}

func TestRead(t *testing.T) {
	big := `{"id":"big","pad":"` + strings.Repeat("x", 10<<20) + `"}`
	tests := []struct {
		name      string
		prev, cur *string
		want      []string
	}{
		{"nothing retained", nil, nil, []string{}},
		{"predecessor first", new(`{"id":"a"}` + "\n" + `{"id":"b"}` + "\n"), new(`{"id":"c"}` + "\n"), []string{"a", "b", "c"}},
		{"deleted predecessor", nil, new(`{"id":"c"}` + "\n"), []string{"c"}},
		{"only a predecessor", new(`{"id":"a"}` + "\n"), nil, []string{"a"}},
		{"truncated mid-line", nil, new(`{"id":"a"}` + "\n" + `{"id":"b","x":tr`), []string{"a"}},
		{"non-object lines", nil, new("[1,2]\n\"s\"\n3\nnull\n{\"id\":\"a\"}\n{}{}\n{\"id\":\"b\"} x\n\n   \n"), []string{"a"}},
		{"CRLF and blanks", nil, new("{\"id\":\"a\"}\r\n  {\"id\":\"b\"}  \n"), []string{"a", "b"}},
		{"binary blob", new("\x00\x01\xff\xfe{{{\n\x89PNG\r\n\x1a\n"), new(`{"id":"a"}` + "\n\xff\xfe\n"), []string{"a"}},
		{"legacy record without outcome", nil, new(`{"id":"old","event":"PostToolUse","success":false}` + "\n"), []string{"old"}},
		{"10 MiB single line in the predecessor", new(big + "\n" + `{"id":"a"}` + "\n"), new(`{"id":"b"}` + "\n"), []string{"a", "b"}},
		{"10 MiB single line, unterminated", nil, new(`{"id":"a"}` + "\n" + big), []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.prev != nil {
				writeSeg(t, dir, PrevName, *tt.prev)
			}
			if tt.cur != nil {
				writeSeg(t, dir, LogName, *tt.cur)
			}
			got, err := Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, ids(got)); d != "" {
				t.Errorf("records (-want +got):\n%s", d)
			}
		})
	}
}

func TestReadCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	writeSeg(t, dir, LogName, `{"id":"a"}`+"\n")
	if got, _ := Read(dir); len(got) != 1 {
		t.Fatalf("got %d records", len(got))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("Read created files: %v", entries)
	}
	missing := filepath.Join(dir, "missing")
	if got, err := Read(missing); err != nil || len(got) != 0 {
		t.Errorf("Read of a missing dir = %v, %v", got, err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("Read created the data dir")
	}
}

func TestReadInvalidUTF8BecomesReplacement(t *testing.T) {
	dir := t.TempDir()
	writeSeg(t, dir, LogName, "{\"id\":\"a\",\"tool_name\":\"x\xffy\"}\n")
	got, _ := Read(dir)
	if len(got) != 1 || got[0]["tool_name"] != "x\uFFFDy" {
		t.Fatalf("got %v", got)
	}
}

func TestReadSkipsSegmentsThatFail(t *testing.T) {
	tests := []struct {
		name string
		open func(t *testing.T) func(string) (*os.File, error)
		want []string
	}{
		{"predecessor vanishes after enumeration", func(t *testing.T) func(string) (*os.File, error) {
			return func(p string) (*os.File, error) {
				if filepath.Base(p) == PrevName {
					if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
						t.Fatal(err)
					}
				}
				return openRead(p)
			}
		}, []string{"c"}},
		{"current cannot be opened", func(t *testing.T) func(string) (*os.File, error) {
			return func(p string) (*os.File, error) {
				if filepath.Base(p) == LogName {
					return nil, errors.New("sharing violation")
				}
				return openRead(p)
			}
		}, []string{"a"}},
		{"every segment unreadable", func(t *testing.T) func(string) (*os.File, error) {
			return func(string) (*os.File, error) { return nil, errors.New("locked") }
		}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeSeg(t, dir, PrevName, `{"id":"a"}`+"\n")
			writeSeg(t, dir, LogName, `{"id":"c"}`+"\n")
			segs, err := readRetained(dir, tt.open(t))
			if err != nil {
				t.Fatalf("Read failed instead of skipping: %v", err)
			}
			var got []map[string]any
			for _, s := range segs {
				got = append(got, ParseLines(s)...)
			}
			if d := cmp.Diff(tt.want, ids(got)); d != "" {
				t.Errorf("records (-want +got):\n%s", d)
			}
		})
	}
	if _, err := Read(""); err == nil {
		t.Error("Read of an empty data dir path succeeded")
	}
	if _, err := ReadSession("", "s"); err == nil {
		t.Error("ReadSession of an empty data dir path succeeded")
	}
}

// TestSnapshotAcrossRotations runs rotating appends from inside the reader, between
// its opening the current segment and the predecessor, the worst moment: the file
// opened as agent.log has become agent.log.1 by the time agent.log.1 is opened, so a
// naive reader returns that segment twice. The snapshot must notice and retry; when
// rotations interleave with every lock-free attempt, it must fall back to the lock.
// Either way the records read are those retained at one moment, each once, in order.
func TestSnapshotAcrossRotations(t *testing.T) {
	for _, rotations := range []int{1, snapshotAttempts - 1} {
		t.Run(fmt.Sprintf("rotations=%d", rotations), func(t *testing.T) {
			dir := t.TempDir()
			// Every append rotates: agent.log.1 holds the one before the last.
			l := logFile{dir: dir, limit: 1, timeout: time.Minute}
			seq := 0
			appendOne := func() {
				if err := l.append(seqRecord(0, seq, 10)); err != nil {
					t.Fatal(err)
				}
				seq++
			}
			appendOne()
			appendOne()
			opens, done := 0, 0
			open := func(p string) (*os.File, error) {
				opens++
				// The second open of each attempt is the predecessor's (current, then
				// predecessor, then the two checks: four opens an attempt).
				if opens%4 == 2 && done < rotations {
					appendOne()
					done++
				}
				return openRead(p)
			}
			segs, err := readRetained(dir, open)
			if err != nil {
				t.Fatal(err)
			}
			var got []map[string]any
			for _, s := range segs {
				got = append(got, ParseLines(s)...)
			}
			want := []string{fmt.Sprintf("w000-%07d", seq-2), fmt.Sprintf("w000-%07d", seq-1)}
			if d := cmp.Diff(want, useIDs(got)); d != "" {
				t.Errorf("records after %d rotations mid-read (-want +got):\n%s", done, d)
			}
		})
	}
}

// TestReadOversizedSegmentKeepsTail: a segment larger than any this package writes is
// read from its end; the records there survive and the cut first line is dropped.
func TestReadOversizedSegmentKeepsTail(t *testing.T) {
	for _, aligned := range []bool{false, true} {
		t.Run(fmt.Sprintf("aligned=%v", aligned), func(t *testing.T) {
			dir := t.TempDir()
			var b bytes.Buffer
			for i := 0; b.Len() < maxSegmentRead+200; i++ {
				fmt.Fprintf(&b, "{\"id\":\"%07d\"}\n", i)
			}
			data := b.Bytes()
			if aligned { // blank lines at the end until the byte before the window is a newline
				for data[len(data)-maxSegmentRead-1] != '\n' {
					data = append(data, '\n')
				}
			}
			writeSeg(t, dir, LogName, string(data))
			got, _ := Read(dir)
			// Want every record whose line starts inside the last maxSegmentRead bytes.
			window := len(data) - maxSegmentRead
			var want []string
			for off := 0; off < len(data); {
				n := bytes.IndexByte(data[off:], '\n')
				if off >= window && n > 0 {
					want = append(want, string(data[off+7:off+n-2]))
				}
				off += n + 1
			}
			if d := cmp.Diff(want, ids(got)); d != "" {
				t.Fatalf("tail records (-want +got):\n%s", d)
			}
		})
	}
}

func TestReadSession(t *testing.T) {
	dir := t.TempDir()
	writeSeg(t, dir, PrevName, `{"id":"1","session_id":"s1"}`+"\n"+`{"id":"2","session_id":"s2"}`+"\n")
	writeSeg(t, dir, LogName, `{"id":"3","session_id":"s1x"}`+"\n"+`{"id":"4"}`+"\n"+`{"id":"5","session_id":"s1"}`+"\n"+`{"id":"6","session_id":1}`+"\n")
	tests := []struct {
		session string
		want    []string
	}{
		{"s1", []string{"1", "5"}},
		{"s2", []string{"2"}},
		{"none", []string{}},
		{"", []string{"1", "2", "3", "4", "5", "6"}},
	}
	for _, tt := range tests {
		got, err := ReadSession(dir, tt.session)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(tt.want, ids(got)); d != "" {
			t.Errorf("ReadSession(%q) (-want +got):\n%s", tt.session, d)
		}
	}
}

// FuzzParseLines: arbitrary bytes never panic; every record returned is an object that
// came from one line, and re-encoding the records parses back to the same count.
func FuzzParseLines(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"b\":[1,2]}\r\n"))
	f.Add([]byte("{\"a\":1}{\"b\":2}\n\x00\xff"))
	f.Add([]byte("{\"a\":\"\xff\"}\n[]\nnull\n"))
	f.Add([]byte("{\"a\":{\"b\":{\"c\":null}}} trailing\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := ParseLines(data)
		if len(recs) > bytes.Count(data, []byte("\n"))+1 {
			t.Fatalf("%d records from %d lines", len(recs), bytes.Count(data, []byte("\n"))+1)
		}
		var again bytes.Buffer
		for _, r := range recs {
			if r == nil {
				t.Fatal("nil record")
			}
			line, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			again.Write(append(line, '\n'))
		}
		if n := len(ParseLines(again.Bytes())); n != len(recs) {
			t.Fatalf("re-encoded %d records parse back as %d", len(recs), n)
		}
	})
}
