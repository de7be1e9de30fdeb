package projectscan

import (
	"regexp"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
)

// parseErrors are every error parse may give besides TOML's, whose messages are
// tomlread's fixed description and position: none may carry input text.
var parseErrors = map[string]bool{
	"not valid UTF-8; not used":                         true,
	"not a valid JSON object; not used":                 true,
	"not a valid JSON object (data after it); not used": true,
}

// tomlError is parse's wording of a tomlread refusal.
var tomlError = regexp.MustCompile(`^not valid TOML \((syntax error at line [1-9][0-9]*, column [1-9][0-9]*|a key or table is defined more than once or conflicts with another|unreadable document)\); not used$`)

// FuzzFacts parses arbitrary content as each fact kind and looks up arbitrary keys: it
// must never panic, never echo content in an error, and answer consistently.
func FuzzFacts(f *testing.F) {
	f.Add(uint8(0), []byte(`{"scripts": {"test": "pytest", "lint": ""}, "devDependencies": {"lodash.merge": "1"}}`), "scripts.test")
	f.Add(uint8(0), []byte(`{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`), "scripts.test")
	f.Add(uint8(0), []byte(`{"a.b": {"c": 1}, "a": {"b.c": null}}`), "a.b.c")
	f.Add(uint8(1), []byte("[tool.ruff.lint]\nselect = ['E']\n[tool]\npylint.x = 1\n"), "tool.pylint")
	f.Add(uint8(1), []byte("[[tool.x]]\na = 1\n"), "tool.x")
	f.Add(uint8(2), []byte("[metadata]\nname = x\n[tool:pytest]\n  [continued]\n"), "tool:pytest")
	f.Add(uint8(2), []byte("\ufeff[ spaced ]\r\n"), "spaced")
	f.Fuzz(func(t *testing.T, k uint8, content []byte, key string) {
		kind := []string{catalog.FactJSON, catalog.FactTOML, catalog.FactINI}[int(k)%3]
		d, err := parse(kind, content)
		if err != nil {
			msg := err.Error()
			if !parseErrors[msg] && (kind != catalog.FactTOML || !tomlError.MatchString(msg)) {
				t.Fatalf("unexpected error text %q", msg)
			}
			return
		}
		got := d.has(key)
		if again := d.has(key); again != got {
			t.Fatalf("has(%q) changed between calls", key)
		}
		if _, ok := d.(sections); ok && got && !strings.Contains(string(content), key) {
			t.Fatalf("section %q reported but not in the content", key)
		}
		if tr, ok := d.(tree); ok && got {
			steps := 0
			if v, found := lookup(tr.m, key, &steps); !found || v == nil {
				t.Fatalf("has(%q) without a value", key)
			}
			// A present dotted key is reachable from one of its prefixes.
			first, _, _ := strings.Cut(key, ".")
			hit := false
			for k := range tr.m {
				hit = hit || strings.HasPrefix(key, k) && strings.HasPrefix(k, first)
			}
			if !hit {
				t.Fatalf("has(%q) but no top-level key starts it", key)
			}
		}
	})
}

// FuzzINI checks the section parser against its rule: every reported section comes
// from an unindented line starting with [.
func FuzzINI(f *testing.F) {
	f.Add("[a]\n[b] x\n [c]\n\t[d]\n[]\n[ e ]\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		for name := range parseINI([]byte(s)) {
			if name == "" || name != strings.TrimSpace(name) || strings.Contains(name, "]") {
				t.Fatalf("bad section %q", name)
			}
			ok := false
			for line := range strings.Lines(s) {
				ok = ok || strings.HasPrefix(line, "[") && strings.Contains(line, name)
			}
			if !ok {
				t.Fatalf("section %q from no header line", name)
			}
		}
	})
}
