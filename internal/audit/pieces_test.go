package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pieces reads a file through a pieceReader with a buffer of bufBytes and returns the
// pieces, checking that each but the last ends with a newline.
func pieces(t testing.TB, path string, bufBytes int) ([]byte, error) {
	t.Helper()
	f, size := openSized(t, path)
	defer f.Close()
	r := newPieceReader(f, size, bufBytes)
	var all, prev []byte
	for {
		p, err := r.next()
		if err != nil {
			return nil, err
		}
		if p == nil {
			return all, nil
		}
		if prev != nil && !bytes.HasSuffix(prev, []byte("\n")) {
			t.Fatalf("a piece before the last does not end a line: %q", prev)
		}
		all = append(all, p...)
		prev = append(prev[:0], p...)
	}
}

// openSized opens path for reading, with its size as a snapshot takes it.
func openSized(t testing.TB, path string) (*os.File, int64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		t.Fatal(err)
	}
	return f, fi.Size()
}

func wantHeld(t testing.TB, path string) []byte {
	t.Helper()
	f, size := openSized(t, path)
	defer f.Close()
	b, err := readHeld(f, size)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPieceReaderMatchesReadHeld: the pieces, put together, are the bytes readHeld
// returns, for any buffer size, lines longer than the buffer, and a segment larger than
// a reader takes (read from its end, the partial first line dropped).
func TestPieceReaderMatchesReadHeld(t *testing.T) {
	t.Parallel()
	line := func(n int) string { return `{"x":"` + strings.Repeat("a", max(n-9, 0)) + "\"}\n" }
	big := strings.Repeat(line(300), (maxSegmentRead/300)+50)
	for _, tc := range []struct {
		name, data string
	}{
		{"empty", ""},
		{"one line", line(40)},
		{"no final newline", line(40) + `{"y":1}`},
		{"only newlines", "\n\n\n"},
		{"long lines", line(10) + line(5000) + line(3) + line(70000)},
		{"larger than a read, lines", big},
		{"larger than a read, one line", `{"x":"` + strings.Repeat("b", maxSegmentRead+10) + "\"}\n"},
		{"larger than a read, newline at the cut", strings.Repeat("c", 10) + "\n" + strings.Repeat(line(100), maxSegmentRead/100)},
	} {
		path := filepath.Join(t.TempDir(), "seg")
		if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
			t.Fatal(err)
		}
		want := wantHeld(t, path)
		bufs := []int{1, 2, 7, 64, 4096, pieceBytes}
		if len(tc.data) > 1<<16 {
			// Megabytes a byte at a time are millions of reads (minutes under Wine) and test
			// nothing the small cases do not: the large ones take buffers that do not divide
			// the lines (4093) and the real one.
			bufs = []int{4093, 4096, pieceBytes}
		}
		for _, buf := range bufs {
			got, err := pieces(t, path, buf)
			if err != nil {
				t.Fatalf("%s, buffer %d: %v", tc.name, buf, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, buffer %d: pieces differ from readHeld (got %d bytes, want %d)", tc.name, buf, len(got), len(want))
			}
		}
	}
}

// TestSessionSummaryThroughPieces: the summary read in pieces of any size is the
// summary of the whole segment.
func TestSessionSummaryThroughPieces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fillSessions(t, dir, func(i int) string { return []string{"s1", "s2", "s1"}[i%3] })
	evs, err := ReadSession(dir, "s1")
	if err != nil {
		t.Fatal(err)
	}
	got, n, err := SessionSummary(dir, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if n != len(evs) {
		t.Errorf("SessionSummary summarised %d records, ReadSession found %d", n, len(evs))
	}
	if diff := cmp.Diff(Summarize(evs), got); diff != "" {
		t.Errorf("summary (-ReadSession +SessionSummary):\n%s", diff)
	}
}

func FuzzPieceReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n{\"b\":2}\n"), 3)
	f.Add([]byte("no newline at all"), 1)
	f.Add([]byte("\n\n{}\n"), 2)
	f.Fuzz(func(t *testing.T, data []byte, buf int) {
		if buf < 1 || buf > 1<<12 {
			return
		}
		path := filepath.Join(t.TempDir(), "seg")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := pieces(t, path, buf)
		if err != nil {
			t.Fatal(err)
		}
		if want := wantHeld(t, path); !bytes.Equal(got, want) {
			t.Fatalf("buffer %d: pieces %q, readHeld %q", buf, got, want)
		}
	})
}
