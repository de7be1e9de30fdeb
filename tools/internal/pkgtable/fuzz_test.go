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

// alignedRef is split's alignment rule written the plain way: for each boundary, look
// at every glyph for the one covering the cell before it (quadratic; the reference).
func alignedRef(l string, cols []Column) bool {
	g := layout(l)
	width := 0
	if n := len(g); n > 0 {
		width = g[n-1].col + g[n-1].width
	}
	for _, c := range cols[1:] {
		if c.Start <= 0 || width <= c.Start {
			continue
		}
		for _, x := range g {
			if x.width > 0 && x.col <= c.Start-1 && c.Start-1 < x.col+x.width {
				if x.r != ' ' {
					return false
				}
				break
			}
		}
	}
	return true
}

// FuzzSplitDifferential: split's one-pass alignment check agrees with the plain rule on
// every line, for columns at the word starts of the first line.
func FuzzSplitDifferential(f *testing.F) {
	f.Add("Name  Id   Version\nGit   Git.Git 2.4", "")
	f.Add("名称  ID  版本\n阿里云盘 Alibaba 2", "")
	f.Add("a b c d\nab cd", "e\u0301 👍🏽 x")
	f.Fuzz(func(t *testing.T, in, more string) {
		lines := Lines(in + "\n" + more)
		var starts []int
		prevSpace := true
		for _, g := range layout(lines[0]) {
			if g.width > 0 && g.r != ' ' && prevSpace {
				starts = append(starts, g.col)
			}
			prevSpace = g.width > 0 && g.r == ' '
		}
		if len(starts) == 0 {
			return
		}
		starts[0] = 0
		cols := columnsAt(starts)
		for _, l := range lines {
			_, ok := split(l, cols)
			if want := alignedRef(l, cols); ok != want {
				t.Fatalf("split(%q) aligned=%v, the plain rule says %v (columns %v)", l, ok, want, starts)
			}
		}
	})
}
