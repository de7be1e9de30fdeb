package pkgtable

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// FuzzParse checks that no input panics the parser, that rows keep their shape, and
// that every id Search returns is a whole token copied verbatim from a line of the
// (normalised) input: the parser may drop rows, never invent ids.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		tb, ok := Parse(in)
		if ok {
			for _, row := range tb.Rows {
				if len(row) != len(tb.Columns) {
					t.Fatalf("row has %d cells, table %d columns", len(row), len(tb.Columns))
				}
			}
		}
		r := Search(in)
		if r.Table != ok {
			t.Fatalf("Search.Table=%v, Parse ok=%v", r.Table, ok)
		}
		norm := strings.Join(Lines(in), "\n")
		for _, m := range r.Matches {
			if m.ID == "" || strings.ContainsRune(m.ID, '…') || strings.HasSuffix(m.ID, "...") ||
				strings.IndexFunc(m.ID, unicode.IsSpace) >= 0 {
				t.Fatalf("invalid id %q", m.ID)
			}
			if !strings.Contains(norm, m.ID) || !strings.Contains(norm, m.Name) {
				t.Fatalf("match %+v not taken from the input", m)
			}
		}
		_ = Width(in)
	})
}
