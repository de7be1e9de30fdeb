package packagesearch

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/windows-dev-agent/wda/tools/internal/pkgtable"
)

// ListArgv is the argv that lists what source has installed (upgrades false) or the
// installed packages it has an upgrade for (upgrades true), with the bare executable
// name as argv[0] (docs/tools/package_search.md, "Processes"). WinGet's list of upgrades
// is bound to the winget source, as package_install is, so every upgrade it lists is one
// package_install can run; its list of what is installed is not (WinGet's --source does
// not narrow that list, it only hides the Source column that tells the packages apart).
// Chocolatey's list is local only from Chocolatey CLI v2 on.
func ListArgv(source string, upgrades bool) []string {
	switch {
	case source == "chocolatey" && upgrades:
		return []string{"choco", "outdated", "--limit-output"}
	case source == "chocolatey":
		return []string{"choco", "list", "--limit-output"}
	case source == "scoop" && upgrades:
		return []string{"scoop", "status"}
	case source == "scoop":
		return []string{"scoop", "list"}
	case upgrades:
		return []string{"winget", "list", "--upgrade-available", "--source", "winget", "--disable-interactivity"}
	}
	return []string{"winget", "list", "--disable-interactivity"}
}

// parseInstalled reads a whole stdout and the stderr tail of source's installed list
// (docs/tools/package_search.md, "Parsing installed lists"). Like a search, every
// non-blank line is a package, a message the parser knows, or a line it did not
// understand; stderr never carries packages.
func parseInstalled(source string, upgrades bool, stdout, stderr string) parsed {
	var p parsed
	switch {
	case source == "chocolatey" && upgrades:
		p = parseChocoOutdated(stdout)
	case source == "chocolatey":
		p = parseChoco(stdout)
	case source == "scoop" && upgrades:
		p = parseScoopStatus(stdout)
	case source == "scoop":
		p = parseScoopList(stdout)
	default:
		p = parseWingetList(stdout, upgrades)
	}
	p.installed = true
	for _, l := range pkgtable.Lines(stderr) {
		p.unknown(l)
	}
	return p
}

// filter keeps the matches whose id or name contains q, ignoring case.
func filter(matches []Match, q string) []Match {
	if q == "" {
		return matches
	}
	q = strings.ToLower(q)
	out := []Match{}
	for _, m := range matches {
		if strings.Contains(strings.ToLower(m.ID), q) || strings.Contains(strings.ToLower(m.Name), q) {
			out = append(out, m)
		}
	}
	return out
}

// leadingCount splits "<n> rest" into n and rest.
func leadingCount(t string) (int, string, bool) {
	num, rest, ok := strings.Cut(t, " ")
	n, err := strconv.Atoi(num)
	return n, rest, ok && err == nil && n >= 0
}

// WinGet's messages around its installed tables (en-US).
const (
	wingetNoInstalled = "No installed package found matching input criteria."
	wingetExplicit    = "The following packages have an upgrade available, but require explicit targeting for upgrade:"
	wingetExplicitOld = "The following packages require explicit targeting for upgrade:"
)

// wingetListMessage reports a line WinGet prints around its installed tables, and the
// note for the warning when the line says something was left out.
func wingetListMessage(t string) (known bool, note string) {
	switch t {
	case wingetNoInstalled, wingetExplicit, wingetExplicitOld:
		return true, ""
	}
	if strings.HasPrefix(t, "Updating source: ") || progressResidue(t) {
		return true, ""
	}
	n, rest, ok := leadingCount(t)
	switch {
	case !ok:
		return false, ""
	case rest == "upgrades available." || rest == "upgrade available.":
		return true, ""
	case strings.HasPrefix(rest, "package(s) have version numbers that cannot be determined."):
		return true, fmt.Sprintf("WinGet left out %d installed package(s) whose version it cannot determine (their upgrades are not listed)", n)
	case strings.HasPrefix(rest, "package(s) have pins that prevent upgrade."):
		return true, fmt.Sprintf("WinGet left out %d pinned package(s) (winget pin list shows them)", n)
	}
	return false, ""
}

// progressResidue reports what is left of WinGet's spinner (one of - \ | /) or of a
// progress bar (block and shade characters, then a percentage) when its carriage-return
// overwrites were captured as separate lines.
func progressResidue(t string) bool {
	switch t {
	case "-", `\`, "|", "/":
		return true
	}
	bar, pct, ok := strings.Cut(t, " ")
	pct = strings.TrimSpace(pct)
	if !ok || bar == "" || !strings.HasSuffix(pct, "%") {
		return false
	}
	if _, err := strconv.Atoi(strings.TrimSuffix(pct, "%")); err != nil {
		return false
	}
	for _, r := range bar {
		if r != '█' && r != '▒' && r != '░' && r != '▓' {
			return false
		}
	}
	return true
}

// parseWingetList reads `winget list` (upgrades false) or `winget list
// --upgrade-available --source winget` (upgrades true): one or more tables (the second
// lists packages that need explicit targeting, which package_install's exact id is), the
// messages around them, and footers that may follow a table's last row directly.
func parseWingetList(stdout string, upgrades bool) parsed {
	p := parsed{matches: []Match{}}
	lines := pkgtable.Lines(stdout)
	for i := 0; i < len(lines); {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "":
			i++
		case i+1 < len(lines) && separator(lines[i+1]):
			end := i + 2
			for end < len(lines) {
				// A blank line ends the table, and so does a footer right after the last row.
				e := strings.TrimSpace(lines[end])
				if known, _ := wingetListMessage(e); e == "" || known {
					break
				}
				end++
			}
			p.wingetTable(lines[i:end], upgrades)
			i = end
		default:
			switch known, note := wingetListMessage(t); {
			case !known:
				p.unknown(t)
			case note != "":
				p.notes = append(p.notes, note)
			}
			i++
		}
	}
	return p
}

// wingetListHeaders are the English column names of WinGet's installed table.
var wingetListHeaders = [...]string{"Name", "Id", "Version", "Available", "Source"}

// wingetTable reads one installed table (header, separator, rows). Columns are found by
// their English names; when a header is not one of them (localised output) Name, Id and
// Version are taken from WinGet's fixed order, the first three columns, and Available
// and Source are not read: which of them a fourth column is cannot be told.
func (p *parsed) wingetTable(block []string, upgrades bool) {
	t, ok := p.table(block)
	if !ok {
		return
	}
	english := true
	for _, c := range t.Columns {
		if !oneOfFold(c.Name, wingetListHeaders[:]) {
			english = false
		}
	}
	col := colIndex(t)
	name, id, version, available, source := col("name"), col("id"), col("version"), col("available"), col("source")
	switch {
	case !english && len(t.Columns) >= 3:
		name, id, version, available, source = 0, 1, 2, -1, -1
		p.byPosition = true
	case name < 0 || id < 0:
		p.oddTable(block, len(t.Rows))
		return
	}
	cell := func(row []pkgtable.Cell, i int) pkgtable.Cell {
		if i < 0 {
			return pkgtable.Cell{}
		}
		return row[i]
	}
	p.skipped += t.Rejected
	for _, row := range t.Rows {
		idc, namec, verc := row[id], row[name], cell(row, version)
		if idc.Truncated || !token(idc.Text) || namec.Text == "" {
			p.skipped++
			continue
		}
		src := cell(row, source).Text
		if src == "" && upgrades && !p.byPosition {
			src = "winget" // the argv bound the list to the winget source
		}
		p.matches = append(p.matches, Match{Name: namec.Text, ID: idc.Text, Version: verc.Text, Source: src,
			NameTruncated: namec.Truncated, VersionTruncated: verc.Truncated, Available: cell(row, available).Text})
	}
}

func oneOfFold(s string, list []string) bool {
	for _, x := range list {
		if strings.EqualFold(s, x) {
			return true
		}
	}
	return false
}

// parseChocoOutdated reads `choco outdated --limit-output`: one
// "id|current|available|pinned" per package. The heading, banner and summary lines that
// Chocolatey printed even with --limit-output before 0.10.6 are known messages; the
// packages listed under "Warnings:" could not be checked and are counted.
func parseChocoOutdated(stdout string) parsed {
	p := parsed{matches: []Match{}}
	warnings, inWarnings := 0, false
	for _, l := range pkgtable.Lines(stdout) {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if inWarnings {
			if name, ok := strings.CutPrefix(t, "- "); ok && token(name) {
				warnings++
				continue
			}
			inWarnings = false
		}
		switch {
		case t == "Outdated Packages", t == "Output is package name | current version | available version | pinned?":
			continue
		case t == "Warnings:":
			inWarnings = true
			continue
		case chocoBanner(t):
			continue
		}
		if n, rest, ok := leadingCount(t); ok && n >= 0 &&
			(rest == "package(s) are outdated." || strings.HasPrefix(rest, "package(s) had warnings.")) {
			continue
		}
		if rest, ok := strings.CutPrefix(t, "Chocolatey has determined "); ok {
			if _, rest, ok := leadingCount(rest); ok && rest == "package(s) are outdated." {
				continue
			}
		}
		if !strings.Contains(t, "|") {
			p.unknown(t)
			continue
		}
		f := strings.Split(t, "|")
		if len(f) != 4 || !token(f[0]) || !token(f[1]) || !token(f[2]) || (f[3] != "true" && f[3] != "false") {
			p.skipped++
			continue
		}
		p.matches = append(p.matches, Match{Name: f[0], ID: f[0], Version: f[1], Available: f[2], Source: "chocolatey", Pinned: f[3] == "true"})
	}
	if warnings > 0 {
		p.notes = append(p.notes, fmt.Sprintf("Chocolatey could not check %d package(s) (listed under Warnings: in stdout; not found in its sources)", warnings))
	}
	return p
}

// chocoBanner reports Chocolatey's "Chocolatey v<version>" first line.
func chocoBanner(t string) bool {
	v, ok := strings.CutPrefix(t, "Chocolatey v")
	return ok && token(v) && v[0] >= '0' && v[0] <= '9'
}

// scoopOutOfDate is the note for Scoop's warning that it or its buckets are behind.
const scoopOutOfDate = "Scoop or its buckets are out of date: versions newer than the local manifests are not listed (scoop update refreshes them)"

// scoopStatusMessage reports a line `scoop status` prints around its results, noting
// the out-of-date warnings.
func (p *parsed) scoopStatusMessage(t string) bool {
	if rest, ok := strings.CutPrefix(t, "WARN"); ok && strings.HasPrefix(rest, " ") {
		t = strings.TrimSpace(rest)
	}
	switch t {
	case "Scoop is up to date.", "Everything is ok!":
		return true
	case "Scoop out of date. Run 'scoop update' to get the latest changes.",
		"Scoop is out of date. Run 'scoop update' to get the latest changes.",
		"Scoop bucket(s) out of date. Run 'scoop update' to get the latest changes.":
		if len(p.notes) == 0 || p.notes[len(p.notes)-1] != scoopOutOfDate {
			p.notes = append(p.notes, scoopOutOfDate)
		}
		return true
	}
	return false
}

// parseScoopStatus reads `scoop status`: the Format-Table of Scoop 0.2.1 and later
// (Name, Installed Version, Latest Version, Missing Dependencies, Info; a row without a
// latest version is an app with another problem, not an upgrade) or the headed blocks of
// older Scoop ("Updates are available for:" then "    app: old -> new", and "These
// apps are outdated and on hold:" repeating the held ones).
func parseScoopStatus(stdout string) parsed {
	p := parsed{matches: []Match{}}
	lines := pkgtable.Lines(stdout)
	listed := map[[3]string][]int{} // older Scoop's updates by app, from, to: their matches
	for i := 0; i < len(lines); {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "" || p.scoopStatusMessage(t):
			i++
		case i+1 < len(lines) && separator(lines[i+1]):
			end := tableEnd(lines, i)
			p.scoopStatusTable(lines[i:end])
			i = end
		case t == "Updates are available for:", t == "These apps are outdated and on hold:":
			i = p.scoopUpdates(lines, i+1, t != "Updates are available for:", listed)
		case t == "These app manifests have been removed:", t == "These apps failed to install:":
			i = p.scoopIndented(lines, i+1, func(s string) bool { return token(s) })
		case t == "Missing runtime dependencies:":
			i = p.scoopIndented(lines, i+1, func(s string) bool { return strings.HasPrefix(s, "'") && strings.Contains(s, "' requires '") })
		default:
			p.unknown(t)
			i++
		}
	}
	return p
}

// scoopUpdates reads older Scoop's indented "app: old -> new" lines from lines[i]; held
// marks the apps pinned (the held block repeats apps already listed as updates, which
// listed indexes).
func (p *parsed) scoopUpdates(lines []string, i int, held bool, listed map[[3]string][]int) int {
	for ; i < len(lines) && indented(lines[i]); i++ {
		t := strings.TrimSpace(lines[i])
		name, versions, ok := strings.Cut(t, ": ")
		from, to, arrow := strings.Cut(versions, " -> ")
		if !ok || !arrow || !token(name) || !token(from) || !token(to) {
			p.unknown(t)
			continue
		}
		key := [3]string{name, from, to}
		if seen := listed[key]; held && len(seen) > 0 {
			for _, k := range seen {
				p.matches[k].Pinned = true
			}
			continue
		}
		listed[key] = append(listed[key], len(p.matches))
		p.matches = append(p.matches, Match{Name: name, ID: name, Version: from, Available: to, Source: "scoop", Pinned: held})
	}
	return i
}

// scoopIndented accounts for the indented lines of an older Scoop block that lists no
// upgrades: each must read as known reads it, or it was not understood.
func (p *parsed) scoopIndented(lines []string, i int, known func(string) bool) int {
	for ; i < len(lines) && indented(lines[i]); i++ {
		if t := strings.TrimSpace(lines[i]); !known(t) {
			p.unknown(t)
		}
	}
	return i
}

// scoopStatusTable reads the Format-Table of `scoop status`.
func (p *parsed) scoopStatusTable(block []string) {
	t, ok := p.table(block)
	if !ok {
		return
	}
	col := colIndex(t)
	name, installed, latest, info := col("name"), col("installed version"), col("latest version"), col("info")
	if name < 0 || installed < 0 || latest < 0 {
		p.oddTable(block, len(t.Rows))
		return
	}
	p.skipped += t.Rejected
	for _, row := range t.Rows {
		if row[latest].Text == "" {
			continue // failed, removed, deprecated or missing dependencies: not an upgrade
		}
		if m, ok := p.scoopRow(row, name, installed, -1); ok {
			m.Available = row[latest].Text
			m.Pinned = info >= 0 && strings.Contains(row[info].Text, "Held package")
			p.matches = append(p.matches, m)
		}
	}
}

// parseScoopList reads `scoop list`: "Installed apps:" then the Format-Table of Scoop
// 0.2 and later (Name, Version, Source, and from 0.2.1 Updated and Info), or older
// Scoop's indented "app version [*global*] [*failed*] [*hold*] [[bucket]] [{arch}]"
// lines.
func parseScoopList(stdout string) parsed {
	p := parsed{matches: []Match{}}
	lines := pkgtable.Lines(stdout)
	for i := 0; i < len(lines); {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "" || t == "Installed apps:" || t == "There aren't any apps installed." ||
			strings.HasPrefix(t, "Installed apps matching '") && strings.HasSuffix(t, "':"):
			i++
		case i+1 < len(lines) && separator(lines[i+1]):
			end := tableEnd(lines, i)
			p.scoopListTable(lines[i:end])
			i = end
		case indented(lines[i]):
			p.scoopLegacyApp(t)
			i++
		default:
			p.unknown(t)
			i++
		}
	}
	return p
}

// scoopListTable reads the Format-Table of `scoop list`.
func (p *parsed) scoopListTable(block []string) {
	t, ok := p.table(block)
	if !ok {
		return
	}
	col := colIndex(t)
	name, version, source, info := col("name"), col("version"), col("source"), col("info")
	if name < 0 || version < 0 {
		p.oddTable(block, len(t.Rows))
		return
	}
	p.skipped += t.Rejected
	for _, row := range t.Rows {
		if m, ok := p.scoopRow(row, name, version, source); ok {
			m.Pinned = info >= 0 && strings.Contains(row[info].Text, "Held package")
			p.matches = append(p.matches, m)
		}
	}
}

// scoopLegacyApp reads one line of older Scoop's list.
func (p *parsed) scoopLegacyApp(t string) {
	f := strings.Fields(t)
	if len(f) < 2 || !token(f[0]) || !token(f[1]) {
		p.unknown(t)
		return
	}
	m := Match{Name: f[0], ID: f[0], Version: f[1], Source: "scoop"}
	for _, x := range f[2:] {
		switch {
		case x == "*global*", x == "*failed*":
		case x == "*hold*":
			m.Pinned = true
		case len(x) > 2 && strings.HasPrefix(x, "[") && strings.HasSuffix(x, "]"):
			m.Source = x[1 : len(x)-1]
		case len(x) > 2 && strings.HasPrefix(x, "{") && strings.HasSuffix(x, "}"):
		default:
			p.unknown(t)
			return
		}
	}
	p.matches = append(p.matches, m)
}

// tail is the last n bytes of s, starting on a character boundary, and whether
// anything was cut.
func tail(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	s = s[len(s)-n:]
	for i := 0; i < len(s) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(s[i]) {
			return s[i:], true
		}
	}
	return s, true
}
