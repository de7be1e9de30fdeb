package packagesearch

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/windows-dev-agent/wda/tools/internal/pkgtable"
)

// parsed is what a manager's whole output yielded (docs/tools/package_search.md,
// "Parsing"). Every non-blank line is accounted for: a result, a message the parser
// knows, or a line it did not understand. The last two kinds are never turned into
// matches; a line that was not understood makes the result not clean, so the caller
// cannot report a clean success built on text it could not read.
type parsed struct {
	matches    []Match
	skipped    int
	byPosition bool
	// remote counts Scoop results from known buckets that are not added on this
	// machine: they cannot be installed by name, so they are not matches.
	remote int
	// errors and odd count lines that read as an error message and lines that were
	// not understood otherwise; firstErr and firstOdd quote the first of each.
	errors, odd        int
	firstErr, firstOdd string
	// installed marks the parse of an installed list (the warnings' wording differs);
	// notes are what the manager said it left out of one, in the warning's words.
	installed bool
	notes     []string
}

// clean reports that every line of the output was understood.
func (p parsed) clean() bool { return p.errors == 0 && p.odd == 0 }

// maxQuote bounds a line quoted in the warning.
const maxQuote = 200

// unknown records a line that is neither a result nor a known message.
func (p *parsed) unknown(line string) {
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	if errorLike(line) {
		if p.errors == 0 {
			p.firstErr = quote(line)
		}
		p.errors++
		return
	}
	if p.odd == 0 {
		p.firstOdd = quote(line)
	}
	p.odd++
}

func quote(s string) string {
	if utf8.RuneCountInString(s) <= maxQuote {
		return s
	}
	return string([]rune(s)[:maxQuote]) + "…"
}

func (p parsed) warning() string {
	var w []string
	if p.errors > 0 {
		w = append(w, fmt.Sprintf("the package manager printed an error (%d line(s), first: %q); matches may be missing", p.errors, p.firstErr))
	}
	if p.odd > 0 {
		w = append(w, fmt.Sprintf("%d line(s) of the package manager's output were not understood (first: %q); matches may be missing", p.odd, p.firstOdd))
	}
	switch {
	case p.skipped > 0 && p.installed:
		w = append(w, fmt.Sprintf("%d installed package row(s) left out: the id was cut off by the package manager's column width or is not one word (a program the manager found outside its sources), or the row did not line up with the columns", p.skipped))
	case p.skipped > 0:
		w = append(w, fmt.Sprintf("%d result row(s) left out: the id was cut off by the package manager's column width or the row did not line up with the columns; search with a more specific query", p.skipped))
	}
	switch {
	case p.byPosition && p.installed:
		w = append(w, "column headers were not recognised (localised output); name, id and version were taken from the manager's fixed column order, and the available upgrade and the source were not read")
	case p.byPosition:
		w = append(w, "column headers were not recognised (localised output); name, id and version were taken from the manager's fixed column order")
	}
	if p.remote > 0 {
		w = append(w, fmt.Sprintf("%d result(s) are in known Scoop buckets that are not added on this machine and are not listed as matches; add the bucket (scoop bucket add <name>) and search again", p.remote))
	}
	w = append(w, p.notes...)
	return strings.Join(w, "; ")
}

// errorWords mark a line as an error message rather than merely not understood. The
// distinction only chooses the warning's wording: both make the result not clean.
var errorWords = [...]string{
	"error", "exception", "failed", "cannot", "can't", "could not", "unable to", "denied",
	"invalid", "expired", "not recognized", "not running from an elevated", "categoryinfo",
	"fullyqualifiederrorid",
}

// errorLike reports a line that reads as an error: one of errorWords, a PowerShell
// position line ("At C:\…\x.ps1:52 char:15"), or a PowerShell error record headed by a
// cmdlet name ("Invoke-WebRequest : …" in Windows PowerShell, "Split-Path: …" in
// PowerShell 7).
func errorLike(line string) bool {
	lower := strings.ToLower(line)
	for _, w := range errorWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	if strings.HasPrefix(line, "At ") && strings.Contains(line, " char:") {
		return true
	}
	head, _, found := strings.Cut(line, ":")
	head = strings.TrimSuffix(head, " ")
	verb, noun, dash := strings.Cut(head, "-")
	return found && dash && word(verb) && word(noun)
}

// word reports a non-empty run of ASCII letters (a PowerShell verb or noun).
func word(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

// parse reads a whole stdout and the stderr tail of source's search.
func parse(source, stdout, stderr string) parsed {
	var p parsed
	switch source {
	case "chocolatey":
		p = parseChoco(stdout)
	case "scoop":
		p = parseScoop(stdout)
	default:
		p = parseWinget(stdout)
	}
	// stderr never carries results; any text there that is not a known message is
	// reported (Scoop's older "No matches found." went to stderr).
	for _, l := range pkgtable.Lines(stderr) {
		t := strings.TrimSpace(l)
		if t == "" || (source == "scoop" && scoopNoMatches(t)) {
			continue
		}
		p.unknown(t)
	}
	return p
}

// wingetNoResults is WinGet's message when nothing matched (it also exits non-zero).
const wingetNoResults = "No package found matching input criteria."

func parseWinget(stdout string) parsed {
	r := pkgtable.Search(stdout)
	p := parsed{matches: []Match{}, skipped: r.Skipped, byPosition: r.ByPosition}
	if !r.Table {
		// Without a table every line must be a message WinGet prints instead of one.
		for _, l := range pkgtable.Lines(stdout) {
			if t := strings.TrimSpace(l); t != wingetNoResults {
				p.unknown(t)
			}
		}
		return p
	}
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

// parseChoco reads `choco search --limit-output`: one "id|version" per package and,
// by that option's contract, nothing else. A line with a '|' that is not exactly two
// single-token fields is counted as skipped; any other non-blank line (a licence
// error, the non-elevated warning, a source error) was not understood.
func parseChoco(stdout string) parsed {
	p := parsed{matches: []Match{}}
	for _, l := range pkgtable.Lines(stdout) {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if !strings.Contains(l, "|") {
			p.unknown(l)
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

// Scoop's messages around its results. A remote heading starts results from known
// buckets that are not added.
var (
	scoopLocalHeadings = [...]string{
		"Results from local buckets...", "Searching in local buckets...", "Searching in local buckets ...",
		"No matches in local buckets found",
	}
	scoopRemoteHeadings = [...]string{
		"Results from other known buckets...", "Results from other known buckets:",
		"(add them using 'scoop bucket add <name>')", "Searching in remote buckets...",
		"Searching in remote buckets ...",
	}
)

// scoopNoMatches reports Scoop's no-result messages, with or without the WARN/ERROR
// prefix its warn and abort helpers print.
func scoopNoMatches(t string) bool {
	for _, prefix := range [...]string{"WARN", "ERROR"} {
		if rest, ok := strings.CutPrefix(t, prefix); ok && strings.HasPrefix(rest, " ") {
			t = strings.TrimSpace(rest)
		}
	}
	switch t {
	case "No matches found.", "No matches found", "No matches in remote buckets found":
		return true
	}
	return false
}

// parseScoop reads every layout Scoop (and its Shovel fork) has printed for search
// results (docs/tools/package_search.md, "Parsing"):
//   - PowerShell's Format-Table of Name, Version, Source, Binaries (Scoop 0.2 and
//     later); a table of Name and Source after "Results from other known buckets..."
//     lists buckets that are not added;
//   - the per-bucket listing of older Scoop: "'main' bucket:" then indented
//     "name (version)" lines, optionally followed by " --> includes '<binary>'", and
//     "'extras' bucket (install using 'scoop install extras/<app>'):" then indented names
//     from a bucket that is not added;
//   - Shovel's detail listing: "bucket/name", then indented "Version: x",
//     "Description: …", "Binaries:" / "Shortcuts:" and "- exe" lines.
//
// Everything else is a known message or a line that was not understood.
func parseScoop(stdout string) parsed {
	p := parsed{matches: []Match{}}
	lines := pkgtable.Lines(stdout)
	remote := false
	for i := 0; i < len(lines); {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "" || scoopNoMatches(t):
			i++
		case oneOf(t, scoopLocalHeadings[:]):
			remote = false
			i++
		case oneOf(t, scoopRemoteHeadings[:]):
			remote = true
			i++
		case i+1 < len(lines) && separator(lines[i+1]):
			end := tableEnd(lines, i)
			p.scoopTable(lines[i:end], remote)
			i = end
		default:
			if bucket, rest, ok := bucketHeading(t); ok {
				switch {
				case rest == ":":
					i = p.scoopBucket(lines, i+1, bucket)
				case strings.HasPrefix(rest, " (") && strings.HasSuffix(rest, "):"):
					i = p.scoopRemoteBucket(lines, i+1)
				default:
					p.unknown(t)
					i++
				}
				continue
			}
			if next := i + 1; next < len(lines) {
				if bucket, name, ok := strings.Cut(t, "/"); ok && token(bucket) && token(name) && !strings.Contains(name, "/") {
					if v, ok := strings.CutPrefix(strings.TrimSpace(lines[next]), "Version:"); ok && indented(lines[next]) {
						i = p.scoopDetail(lines, next+1, bucket, name, strings.TrimSpace(v))
						continue
					}
				}
			}
			p.unknown(t)
			i++
		}
	}
	return p
}

func oneOf(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// separator reports a Format-Table or WinGet separator line: only '-' and spaces, at
// least three dashes.
func separator(l string) bool {
	return strings.Count(l, "-") >= 3 && strings.Trim(l, "- ") == ""
}

func indented(l string) bool { return strings.HasPrefix(l, " ") }

// bucketHeading splits "'<bucket>' bucket<rest>".
func bucketHeading(t string) (bucket, rest string, ok bool) {
	after, found := strings.CutPrefix(t, "'")
	if !found {
		return "", "", false
	}
	bucket, rest, found = strings.Cut(after, "' bucket")
	if !found || !token(bucket) {
		return "", "", false
	}
	return bucket, rest, true
}

// scoopTable reads one Format-Table block (header, separator, rows).
func (p *parsed) scoopTable(block []string, remote bool) {
	t, ok := p.table(block)
	if !ok {
		return
	}
	col := colIndex(t)
	name, version, bucket := col("name"), col("version"), col("source")
	p.skipped += t.Rejected
	switch {
	case name < 0:
		// Not a result table Scoop prints: say so rather than guess its columns.
		p.oddTable(block, len(t.Rows))
		return
	case version < 0 && remote:
		p.remote += len(t.Rows)
		return
	case version < 0:
		p.skipped += len(t.Rows)
		return
	}
	for _, row := range t.Rows {
		if m, ok := p.scoopRow(row, name, version, bucket); ok {
			p.matches = append(p.matches, m)
		}
	}
}

// tableEnd is the index after the Format-Table whose header is lines[i]: the first
// blank line after its separator, or the end.
func tableEnd(lines []string, i int) int {
	end := i + 2
	for end < len(lines) && strings.TrimSpace(lines[end]) != "" {
		end++
	}
	return end
}

// table parses one table block (header, separator, rows); a block that is not one is
// recorded line by line as not understood.
func (p *parsed) table(block []string) (pkgtable.Table, bool) {
	t, ok := pkgtable.Parse(strings.Join(block, "\n"))
	if !ok {
		for _, l := range block {
			p.unknown(l)
		}
	}
	return t, ok
}

// oddTable records the rows of a table whose columns are not the ones the manager
// prints, quoting its header: said so rather than guessed.
func (p *parsed) oddTable(block []string, rows int) {
	p.odd += rows
	if p.firstOdd == "" {
		p.firstOdd = quote(strings.TrimSpace(block[0]))
	}
}

// colIndex finds a table's column by name, ignoring case; -1 when absent.
func colIndex(t pkgtable.Table) func(string) int {
	return func(name string) int {
		for i, c := range t.Columns {
			if strings.EqualFold(c.Name, name) {
				return i
			}
		}
		return -1
	}
}

// scoopRow is the match of a Scoop table row (source -1: no source column, "scoop"),
// false when the name was cut off or is not one word, which is counted as skipped.
func (p *parsed) scoopRow(row []pkgtable.Cell, name, version, source int) (Match, bool) {
	n := row[name]
	if n.Truncated || !token(n.Text) {
		p.skipped++
		return Match{}, false
	}
	src := "scoop"
	if source >= 0 && row[source].Text != "" {
		src = row[source].Text
	}
	return Match{Name: n.Text, ID: n.Text, Version: row[version].Text, Source: src, VersionTruncated: row[version].Truncated}, true
}

// scoopBucket reads the indented "name (version)[ --> includes '<bin>']" lines of an
// older Scoop's "'<bucket>' bucket:" block from lines[i] and returns the index after it.
func (p *parsed) scoopBucket(lines []string, i int, bucket string) int {
	for ; i < len(lines) && indented(lines[i]); i++ {
		t := strings.TrimSpace(lines[i])
		if before, bin, found := strings.Cut(t, " --> includes "); found {
			if len(bin) < 2 || !strings.HasPrefix(bin, "'") || !strings.HasSuffix(bin, "'") {
				p.unknown(t)
				continue
			}
			t = before
		}
		name, version, found := strings.Cut(t, " (")
		version, closed := strings.CutSuffix(version, ")")
		if !found || !closed || !token(name) || !token(version) {
			p.unknown(t)
			continue
		}
		p.matches = append(p.matches, Match{Name: name, ID: name, Version: version, Source: bucket})
	}
	return i
}

// scoopRemoteBucket counts the indented app names under an older Scoop's (or
// Shovel's) heading of a known bucket that is not added.
func (p *parsed) scoopRemoteBucket(lines []string, i int) int {
	for ; i < len(lines) && indented(lines[i]); i++ {
		if t := strings.TrimSpace(lines[i]); token(t) {
			p.remote++
		} else {
			p.unknown(t)
		}
	}
	return i
}

// scoopDetail records one Shovel result and skips its indented detail lines
// (Description, Binaries, Shortcuts and their "- exe" items) from lines[i].
func (p *parsed) scoopDetail(lines []string, i int, bucket, name, version string) int {
	if token(version) {
		p.matches = append(p.matches, Match{Name: name, ID: name, Version: version, Source: bucket})
	} else {
		p.skipped++
	}
	for ; i < len(lines) && indented(lines[i]); i++ {
		t := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(t, "Description:"), t == "Binaries:", t == "Shortcuts:", strings.HasPrefix(t, "- "):
		default:
			p.unknown(t)
		}
	}
	return i
}

// token reports a non-empty field with no whitespace, control character or ellipsis.
func token(s string) bool {
	return s != "" && !strings.ContainsRune(s, '…') && strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}) < 0
}
