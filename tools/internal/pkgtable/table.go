package pkgtable

import "strings"

// Column is one column of a table: its header text and the first display cell it
// occupies. A column extends to the next column's Start; the last one to the line end.
type Column struct {
	Name  string
	Start int
}

// Cell is the text of one column in one row, trimmed, copied verbatim from the input.
// Truncated reports that the manager shortened it to fit the column ("…", or "..." in
// WinGet before 1.3).
type Cell struct {
	Text      string
	Truncated bool
}

// Table is the first header+separator table found in a command's output.
type Table struct {
	Columns []Column
	// Rows hold exactly len(Columns) cells each.
	Rows [][]Cell
	// Rejected counts lines between the separator and the table's end that did not line
	// up with the columns (or were manager notes such as "<additional entries truncated
	// due to result limit>").
	Rejected int
}

// Parse finds the first table in out: a non-blank header line directly above a
// separator line made of '-' (one unbroken run as WinGet prints it, or one run per
// column as PowerShell's Format-Table prints it). Columns come from the separator runs
// when there are several, else from the starts of the header's words. Rows follow until
// the first blank line. ok is false when out holds no table with at least two columns.
func Parse(out string) (t Table, ok bool) {
	lines := Lines(out)
	for i := 1; i < len(lines); i++ {
		runs := dashRuns(lines[i])
		if runs == nil || strings.TrimSpace(lines[i-1]) == "" {
			continue
		}
		cols := columns(lines[i-1], runs)
		if len(cols) < 2 {
			continue
		}
		t = Table{Columns: cols}
		for _, l := range lines[i+1:] {
			trimmed := strings.TrimSpace(l)
			if trimmed == "" {
				break
			}
			if strings.HasPrefix(trimmed, "<") && strings.HasSuffix(trimmed, ">") {
				t.Rejected++
				continue
			}
			cells, aligned := split(l, cols)
			if !aligned {
				t.Rejected++
				continue
			}
			t.Rows = append(t.Rows, cells)
		}
		return t, true
	}
	return Table{}, false
}

// glyph is one rune of a line placed at its display cell.
type glyph struct {
	r          rune
	col, width int
}

func layout(l string) []glyph {
	g := make([]glyph, 0, len(l))
	col, joined := 0, false
	for _, r := range l {
		w := runeWidth(r, joined)
		joined = r == zwj
		g = append(g, glyph{r, col, w})
		col += w
	}
	return g
}

// dashRuns returns the [start,end) display ranges of the '-' runs of a separator line,
// or nil when l is not one (another character, or fewer than three dashes in all).
func dashRuns(l string) [][2]int {
	var runs [][2]int
	total := 0
	for _, g := range layout(l) {
		switch g.r {
		case '-':
			total++
			if n := len(runs); n > 0 && runs[n-1][1] == g.col {
				runs[n-1][1] = g.col + 1
			} else {
				runs = append(runs, [2]int{g.col, g.col + 1})
			}
		case ' ':
		default:
			return nil
		}
	}
	if total < 3 {
		return nil
	}
	return runs
}

// columns places the columns of header over the separator runs.
func columns(header string, runs [][2]int) []Column {
	var starts []int
	if len(runs) > 1 {
		for _, r := range runs {
			starts = append(starts, r[0])
		}
	} else {
		prevSpace := true
		for _, g := range layout(header) {
			if g.width == 0 {
				continue
			}
			if g.r != ' ' && prevSpace {
				starts = append(starts, g.col)
			}
			prevSpace = g.r == ' '
		}
	}
	if len(starts) == 0 {
		return nil
	}
	starts[0] = 0
	cells, ok := split(header, columnsAt(starts))
	if !ok {
		return nil
	}
	cols := make([]Column, len(starts))
	for i, s := range starts {
		if cells[i].Text == "" {
			return nil
		}
		cols[i] = Column{Name: cells[i].Text, Start: s}
	}
	return cols
}

func columnsAt(starts []int) []Column {
	cols := make([]Column, len(starts))
	for i, s := range starts {
		cols[i].Start = s
	}
	return cols
}

// split cuts l at the column starts. It reports false when a column boundary is not
// preceded by a blank cell (text, or the half of a wide character, runs across it):
// the row was not laid out for these columns and re-splitting it would be a guess.
func split(l string, cols []Column) ([]Cell, bool) {
	g := layout(l)
	width := 0
	if n := len(g); n > 0 {
		width = g[n-1].col + g[n-1].width
	}
	// The column starts increase and the glyphs are in display order, so one pass over
	// both finds the glyph covering the cell before each boundary: a table of many
	// columns costs the length of its lines, not their product (an installed list is
	// read from up to 1 MiB).
	j := 0
	for _, c := range cols[1:] {
		if c.Start <= 0 || width <= c.Start {
			continue
		}
		cell := c.Start - 1
		for j < len(g) && (g[j].width == 0 || g[j].col+g[j].width <= cell) {
			j++
		}
		if j < len(g) && g[j].col <= cell && g[j].r != ' ' {
			return nil, false
		}
	}
	texts := make([]strings.Builder, len(cols))
	k := 0
	for _, x := range g {
		for k+1 < len(cols) && x.col >= cols[k+1].Start {
			k++
		}
		texts[k].WriteRune(x.r)
	}
	cells := make([]Cell, len(cols))
	for i := range texts {
		s := strings.TrimSpace(texts[i].String())
		cells[i] = Cell{Text: s, Truncated: strings.HasSuffix(s, "…") || strings.HasSuffix(s, "...")}
	}
	return cells, true
}
