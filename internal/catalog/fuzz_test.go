package catalog_test

import (
	"encoding/json"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// FuzzLoad checks that Load never panics and that whatever it accepts satisfies every
// invariant the engine and the router rely on, and survives a YAML round trip.
func FuzzLoad(f *testing.F) {
	f.Add(wda.CapabilitiesYAML)
	f.Add([]byte("a: {description: d, tools: [{name: tl, argv: [tl]}]}"))
	f.Add([]byte("a: {description: d, safety: bogus, tools: [{name: tl, argv: [tl]}]}"))
	f.Add([]byte("- not a mapping"))
	f.Add([]byte("a: {description: d, tools: [{name: tl, argv: [tl]}], project_files: [go.mod, '*.sln', 'package.json#scripts.test']}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := catalog.Load(src)
		if err != nil {
			return
		}
		check(t, c)
		type toolOut struct {
			Name string   `json:"name"`
			Argv []string `json:"argv"`
		}
		type capOut struct {
			Description  string    `json:"description"`
			Safety       string    `json:"safety"`
			Tags         []string  `json:"tags,omitempty"`
			Tools        []toolOut `json:"tools"`
			ProjectFiles []string  `json:"project_files,omitempty"`
		}
		// Round trip through a JSON object written key by key to keep order.
		var buf []byte
		buf = append(buf, '{')
		for i, id := range c.IDs() {
			cp, _ := c.Get(id)
			out := capOut{Description: cp.Description, Safety: string(cp.Safety), Tags: cp.Tags, ProjectFiles: cp.ProjectFiles}
			for _, tl := range cp.Tools {
				out.Tools = append(out.Tools, toolOut{tl.Name, tl.Argv})
			}
			kb, _ := jsonMarshal(id)
			vb, _ := jsonMarshal(out)
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(append(append(buf, kb...), ':'), vb...)
		}
		buf = append(buf, '}')
		again, err := catalog.Load(buf)
		if err != nil {
			t.Fatalf("reloading %s: %v", buf, err)
		}
		if diff := cmp.Diff(c.IDs(), again.IDs()); diff != "" {
			t.Fatalf("ids changed on reload (-first +again):\n%s", diff)
		}
		for _, id := range c.IDs() {
			a, _ := c.Get(id)
			b, _ := again.Get(id)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Fatalf("%s changed on reload (-first +again):\n%s", id, diff)
			}
		}
	})
}

func check(t *testing.T, c *catalog.Catalog) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range c.IDs() {
		if id == "" || seen[id] {
			t.Fatalf("empty or duplicate id %q", id)
		}
		seen[id] = true
		cp, ok := c.Get(id)
		if !ok || cp.ID != id || cp.Description == "" || len(cp.Tools) == 0 {
			t.Fatalf("bad capability %+v", cp)
		}
		switch cp.Safety {
		case tools.ReadOnly, tools.Reversible, tools.ApprovalRequired, tools.Forbidden:
		default:
			t.Fatalf("%s: safety %q", id, cp.Safety)
		}
		for _, pf := range cp.ProjectFiles {
			checkProjectFile(t, id, pf)
		}
		for _, tl := range cp.Tools {
			if tl.Name == "" || len(tl.Argv) == 0 {
				t.Fatalf("%s: bad tool %+v", id, tl)
			}
			for _, a := range tl.Argv {
				if a == "" {
					t.Fatalf("%s: empty argv element in %+v", id, tl)
				}
			}
		}
	}
}

// checkProjectFile asserts what the project scanner relies on for an accepted
// project_files entry: a root-level name (never a path or a drive), a valid pattern, and
// a fact only of a literal file whose kind can be read.
func checkProjectFile(t *testing.T, id, pf string) {
	t.Helper()
	name, key := catalog.SplitProjectFile(pf)
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\:\x00") || strings.TrimSpace(pf) != pf {
		t.Fatalf("%s: project_files entry %q escapes the root or is blank", id, pf)
	}
	if _, err := path.Match(name, ""); err != nil {
		t.Fatalf("%s: project_files entry %q is not a valid pattern", id, pf)
	}
	if key != "" && (catalog.FactKind(name) == "" || strings.ContainsAny(name, "*?[") || strings.Contains(key, "..") ||
		strings.HasPrefix(key, ".") || strings.HasSuffix(key, ".")) {
		t.Fatalf("%s: project_files fact %q is not readable", id, pf)
	}
}

// FuzzProjectFile checks that every project_files entry Load accepts satisfies the
// scanner's assumptions, and that Load never panics on one.
func FuzzProjectFile(f *testing.F) {
	for _, s := range []string{"go.mod", "*.sln", "package.json#scripts.test", "pyproject.toml#tool.ruff",
		"setup.cfg#tool:pytest", "../x", "a/b", "C:x", "x#", "#k", "go.mod#x", "*.json#k", "[", "a.json#k..l", " go.mod"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pf string) {
		if !utf8.ValidString(pf) {
			return // JSON would carry it as U+FFFD; YAML catalogs are UTF-8
		}
		b, err := json.Marshal(map[string]any{"a": map[string]any{"description": "d",
			"tools": []any{map[string]any{"name": "tl", "argv": []string{"tl"}}}, "project_files": []string{pf}}})
		if err != nil {
			return
		}
		c, err := catalog.Load(b)
		if err != nil {
			if !strings.Contains(err.Error(), "project_files[0]") && !strings.Contains(err.Error(), "not valid YAML") {
				t.Fatalf("refusal does not name the field: %v", err)
			}
			return
		}
		cp, _ := c.Get("a")
		if len(cp.ProjectFiles) != 1 || cp.ProjectFiles[0] != pf {
			t.Fatalf("entry %q loaded as %q", pf, cp.ProjectFiles)
		}
		checkProjectFile(t, "a", pf)
	})
}

// FuzzFind: Find never panics, and for a catalog Load accepts it gives what Get gives
// for every id and for one the catalog lacks.
func FuzzFind(f *testing.F) {
	f.Add(wda.CapabilitiesYAML, "log-git")
	f.Add([]byte("a: {description: d, tools: [{name: tl, argv: [tl]}]}"), "a")
	f.Add([]byte("a: &x {description: d, tools: [{name: tl, argv: [tl]}]}\nb: *x"), "b")
	f.Add([]byte("<<: {a: {description: d, tools: [{name: tl, argv: [tl]}]}}\nb: {description: e, tools: [{name: t, argv: [t]}]}"), "a")
	f.Add([]byte("a: {description: d, safety: read-only, tools: [{name: c, argv: [cmd, /c, format, 'D:']}]}"), "a")
	f.Fuzz(func(t *testing.T, src []byte, id string) {
		found, ok, ferr := catalog.Find(src, id)
		c, err := catalog.Load(src)
		if err != nil {
			return
		}
		if ferr != nil {
			t.Fatalf("Load accepts what Find refuses: %v", ferr)
		}
		for _, want := range append(c.IDs(), id) {
			cp, wantOK := c.Get(want)
			got, gotOK, err := catalog.Find(src, want)
			if err != nil || gotOK != wantOK {
				t.Fatalf("Find(%q) = %v, %v; Get says %v", want, gotOK, err, wantOK)
			}
			if diff := cmp.Diff(cp, got); diff != "" {
				t.Fatalf("Find(%q) (-Get +Find):\n%s", want, diff)
			}
		}
		if want, wantOK := c.Get(id); ok != wantOK || !cmp.Equal(want, found) {
			t.Fatalf("Find(%q) = %v %v, Get %v %v", id, found, ok, want, wantOK)
		}
	})
}
