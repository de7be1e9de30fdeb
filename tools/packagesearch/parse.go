package packagesearch

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/windows-dev-agent/wda/tools/internal/pkgtable"
)

// parsed is what a manager's whole stdout yielded.
type parsed struct {
	matches    []Match
	skipped    int
	byPosition bool
}

func (p parsed) warning() string {
	var w []string
	if p.skipped > 0 {
		w = append(w, fmt.Sprintf("%d result row(s) left out: the id was cut off by the package manager's column width or the row did not line up with the columns; search with a more specific query", p.skipped))
	}
	if p.byPosition {
		w = append(w, "column headers were not recognised (localised output); name, id and version were taken from the manager's fixed column order")
	}
	return strings.Join(w, "; ")
}

func parse(source, stdout string) parsed {
	switch source {
	case "chocolatey":
		return parseChoco(stdout)
	case "scoop":
		return parseScoop(stdout)
	default:
		return parseWinget(stdout)
	}
}

func parseWinget(stdout string) parsed {
	r := pkgtable.Search(stdout)
	p := parsed{matches: []Match{}, skipped: r.Skipped, byPosition: r.ByPosition}
	for _, m := range r.Matches {
		src := m.Source
		if src == "" {
			src = "winget" // the argv bound the search to the winget source
		}
		p.matches = append(p.matches, Match{Name: m.Name, ID: m.ID, Version: m.Version, Source: src,
			NameTruncated: m.NameTruncated, VersionTruncated: m.VersionTruncated})
	}
	return p
}

// parseChoco reads `choco search --limit-output`: one "id|version" per package. Lines
// without a '|' are messages; a line with one that is not exactly two single-token
// fields is counted as skipped.
func parseChoco(stdout string) parsed {
	p := parsed{matches: []Match{}}
	for _, l := range pkgtable.Lines(stdout) {
		l = strings.TrimSpace(l)
		if !strings.Contains(l, "|") {
			continue
		}
		f := strings.Split(l, "|")
		if len(f) != 2 || !token(f[0]) || !token(f[1]) {
			p.skipped++
			continue
		}
		p.matches = append(p.matches, Match{Name: f[0], ID: f[0], Version: f[1], Source: "chocolatey"})
	}
	return p
}

// parseScoop reads Scoop's result table (PowerShell Format-Table: Name, Version,
// Source, Binaries). Anything else (the "WARN  No matches found." line, the legacy
// "'bucket' bucket:" listing) yields no matches rather than a guess.
func parseScoop(stdout string) parsed {
	p := parsed{matches: []Match{}}
	t, ok := pkgtable.Parse(stdout)
	if !ok {
		return p
	}
	col := func(name string) int {
		for i, c := range t.Columns {
			if strings.EqualFold(c.Name, name) {
				return i
			}
		}
		return -1
	}
	name, version, bucket := col("name"), col("version"), col("source")
	p.skipped = t.Rejected
	if name < 0 || version < 0 {
		p.skipped += len(t.Rows)
		return p
	}
	for _, row := range t.Rows {
		n := row[name]
		if n.Truncated || !token(n.Text) {
			p.skipped++
			continue
		}
		src := "scoop"
		if bucket >= 0 && row[bucket].Text != "" {
			src = row[bucket].Text
		}
		p.matches = append(p.matches, Match{Name: n.Text, ID: n.Text, Version: row[version].Text, Source: src,
			VersionTruncated: row[version].Truncated})
	}
	return p
}

// token reports a non-empty field with no whitespace, control character or ellipsis.
func token(s string) bool {
	return s != "" && !strings.ContainsRune(s, '…') && strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}) < 0
}
