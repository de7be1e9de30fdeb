package wda_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The contracts live in docs/ (docs/architecture.md): a comment or a page that
// cites a docs/ file must name one that exists, and nothing may cite material a
// clone does not contain.
var (
	docCite = regexp.MustCompile(`\bdocs/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.md\b`)
	// A section is cited by number (docs/<page>.md §3.1) or by its title in quotes
	// (docs/<page>.md, "Title"); either must be a heading of that page.
	sectionCite = regexp.MustCompile(`\b(docs/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.md)(?: §([0-9]+(?:\.[0-9]+)*)|,?\s+"([^"]+)")`)
	outsideCite = regexp.MustCompile(`\.\./shared\b|\bshared/spec\b|\bspec/[a-z0-9_-]+\.md\b`)
)

type citation struct{ where, text string }

func TestDocCitations(t *testing.T) {
	t.Parallel()
	var cites []citation
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "dist", "node_modules":
				if path != "." {
					return filepath.SkipDir
				}
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".go"):
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, g := range f.Comments {
				cites = append(cites, citation{fset.Position(g.Pos()).String(), g.Text()})
			}
		case strings.HasSuffix(path, ".md"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			cites = append(cites, citation{path, string(b)})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cites) < 100 {
		t.Fatalf("read %d comments and pages; the walk is not seeing the repository", len(cites))
	}
	named := 0
	headings := map[string][]string{}
	for _, c := range cites {
		for _, m := range outsideCite.FindAllString(c.text, -1) {
			t.Errorf("%s cites %q, which a clone does not contain; cite docs/ instead", c.where, m)
		}
		for _, m := range docCite.FindAllString(c.text, -1) {
			named++
			if _, err := os.Stat(filepath.FromSlash(m)); err != nil {
				t.Errorf("%s cites %s, which does not exist", c.where, m)
			}
		}
		for _, m := range sectionCite.FindAllStringSubmatch(c.text, -1) {
			page := m[1]
			hs, ok := headings[page]
			if !ok {
				hs = readHeadings(page)
				headings[page] = hs
			}
			if !hasSection(hs, m[2], m[3]) {
				t.Errorf("%s cites %s, which has no such section", c.where, strings.Join(strings.Fields(m[0]), " "))
			}
		}
	}
	if named == 0 {
		t.Fatal("no docs/ citation found at all")
	}
}

// readHeadings returns the page's headings without their leading #s and
// backquotes; a missing page has none (its citation fails above as well).
func readHeadings(page string) []string {
	b, err := os.ReadFile(filepath.FromSlash(page))
	if err != nil {
		return nil
	}
	var hs []string
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "#"); ok {
			hs = append(hs, strings.ReplaceAll(strings.TrimSpace(strings.TrimLeft(h, "#")), "`", ""))
		}
	}
	return hs
}

// hasSection reports whether a heading is numbered num ("3.1 Kinds…") or, for a
// title, contains it (a title cited in prose may leave out the heading's number or
// its tail), ignoring case, backquotes and line breaks.
func hasSection(headings []string, num, title string) bool {
	title = strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(title, "`", "")), " "))
	for _, h := range headings {
		if num != "" {
			if n, _, _ := strings.Cut(h, " "); strings.TrimSuffix(n, ".") == num {
				return true
			}
			continue
		}
		if strings.Contains(strings.ToLower(h), title) {
			return true
		}
	}
	return false
}

func TestDocCitationPatterns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text         string
		doc, outside bool
	}{
		{"see docs/safety.md, \"Classes\"", true, false},
		{"docs/tools/sandbox_run.md.", true, false},
		{"the spec (../shared/spec/README.md)", false, true},
		{"spec/hooks.md section 3", false, true},
		{"docs/with space/x.md is a fixture", false, false},
		{"a plain comment", false, false},
	} {
		if got := docCite.MatchString(tc.text); got != tc.doc {
			t.Errorf("docCite(%q) = %v, want %v", tc.text, got, tc.doc)
		}
		if got := outsideCite.MatchString(tc.text); got != tc.outside {
			t.Errorf("outsideCite(%q) = %v, want %v", tc.text, got, tc.outside)
		}
	}
}
