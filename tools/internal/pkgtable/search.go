package pkgtable

import (
	"strings"
	"unicode"
)

// Match is one package row of a WinGet search table.
type Match struct {
	Name, ID, Version, Source string
	// NameTruncated and VersionTruncated report that WinGet shortened the value with "…"
	// to fit its column; the text is what was printed, not the full value.
	NameTruncated, VersionTruncated bool
}

// Result is what Search made of a command's output.
type Result struct {
	// Table reports that a header+separator table was found at all.
	Table bool
	// Matches are the rows that carry a whole, single-token id.
	Matches []Match
	// Skipped counts rows dropped: misaligned lines, and rows whose id is empty,
	// truncated or not a single token. Such an id is never returned.
	Skipped int
	// ByPosition reports that the header names were not all recognised (a localised
	// WinGet) and Name, Id and Version were taken from WinGet's fixed column order.
	ByPosition bool
}

// Search maps WinGet's search table (columns Name, Id, Version, optional Match,
// optional Source; WinGet leaves out columns that are empty in every row) to matches.
// When every header is one of those English names the columns are found by name only,
// and a column that is absent stays absent: a table without a Version column yields
// matches without a version, never the next column's text. Only when some header is not
// recognised (a localised WinGet) are the missing Name, Id and Version taken from the
// fixed order (Name first, Id second, Version third, Source fifth of five), and
// ByPosition says so. A Source column absent from the table leaves Source empty: WinGet
// omits it when the search was bound to one source, and the caller knows which.
func Search(out string) Result {
	t, ok := Parse(out)
	if !ok {
		return Result{}
	}
	res := Result{Table: true, Skipped: t.Rejected, Matches: []Match{}}
	find := func(name string) int {
		for i, c := range t.Columns {
			if strings.EqualFold(c.Name, name) {
				return i
			}
		}
		return -1
	}
	id, name, version, source := find("id"), find("name"), find("version"), find("source")
	english := true
	for _, c := range t.Columns {
		if !knownHeader(c.Name) {
			english = false
		}
	}
	if id < 0 {
		if english || len(t.Columns) < 3 {
			res.Skipped += len(t.Rows)
			return res
		}
		id = 1
		res.ByPosition = true
	}
	if !english {
		if name < 0 && id != 0 {
			name, res.ByPosition = 0, true
		}
		if version < 0 && id+1 < len(t.Columns) && id+1 != name {
			version, res.ByPosition = id+1, true
		}
		if source < 0 && res.ByPosition && len(t.Columns) == 5 {
			source = 4
		}
	}
	cell := func(row []Cell, i int) Cell {
		if i < 0 {
			return Cell{}
		}
		return row[i]
	}
	for _, row := range t.Rows {
		idc, namec := cell(row, id), cell(row, name)
		if !wholeID(idc) || namec.Text == "" {
			res.Skipped++
			continue
		}
		verc := cell(row, version)
		res.Matches = append(res.Matches, Match{
			Name: namec.Text, ID: idc.Text, Version: verc.Text, Source: cell(row, source).Text,
			NameTruncated: namec.Truncated, VersionTruncated: verc.Truncated,
		})
	}
	return res
}

// wholeID reports that c can be an id as printed: non-empty, not truncated, one token.
func wholeID(c Cell) bool {
	if c.Text == "" || c.Truncated || strings.ContainsRune(c.Text, '…') {
		return false
	}
	return strings.IndexFunc(c.Text, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) < 0
}

// knownHeader reports one of the English column names of WinGet's search table.
func knownHeader(h string) bool {
	for _, k := range [...]string{"Name", "Id", "Version", "Match", "Source"} {
		if strings.EqualFold(h, k) {
			return true
		}
	}
	return false
}
