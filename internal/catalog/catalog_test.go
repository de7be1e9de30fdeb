package catalog_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

func TestShippedCatalog(t *testing.T) {
	c, err := catalog.Load(wda.CapabilitiesYAML)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"inspect-git", "lint-python", "lint-javascript", "test-python", "test-dotnet",
		"build-dotnet", "create-pr", "test-go", "build-go"}
	if diff := cmp.Diff(want, c.IDs()); diff != "" {
		t.Fatalf("ids (-want +got):\n%s", diff)
	}
	type row struct {
		Safety tools.Class
		Tags   []string
		Tools  []catalog.Tool
	}
	wantCaps := map[string]row{
		"inspect-git":     {tools.ReadOnly, []string{"git", "inspection"}, []catalog.Tool{{"git", []string{"git", "status", "--short", "--branch"}}}},
		"lint-python":     {tools.Reversible, []string{"python", "lint"}, []catalog.Tool{{"ruff", []string{"ruff", "check", "."}}, {"pylint", []string{"pylint", "."}}}},
		"lint-javascript": {tools.Reversible, []string{"javascript", "typescript", "lint"}, []catalog.Tool{{"eslint", []string{"eslint", "."}}, {"dprint", []string{"dprint", "check"}}}},
		"test-python":     {tools.Reversible, []string{"python", "test"}, []catalog.Tool{{"pytest", []string{"pytest"}}}},
		"test-dotnet":     {tools.Reversible, []string{"dotnet", "test"}, []catalog.Tool{{"dotnet", []string{"dotnet", "test"}}}},
		"build-dotnet":    {tools.Reversible, []string{"dotnet", "build"}, []catalog.Tool{{"dotnet", []string{"dotnet", "build"}}}},
		"create-pr":       {tools.ApprovalRequired, []string{"git", "github", "publish"}, []catalog.Tool{{"gh", []string{"gh", "pr", "create", "--fill"}}}},
		"test-go":         {tools.Reversible, []string{"go", "test"}, []catalog.Tool{{"go", []string{"go", "test", "./..."}}}},
		"build-go":        {tools.Reversible, []string{"go", "build"}, []catalog.Tool{{"go", []string{"go", "build", "./..."}}}},
	}
	for id, w := range wantCaps {
		cp, ok := c.Get(id)
		if !ok {
			t.Fatalf("%s missing", id)
		}
		if cp.ID != id || cp.Description == "" {
			t.Errorf("%s: id %q description %q", id, cp.ID, cp.Description)
		}
		if diff := cmp.Diff(w, row{cp.Safety, cp.Tags, cp.Tools}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", id, diff)
		}
	}
}

func TestLoadOrderAndDefaults(t *testing.T) {
	src := `
zeta: {description: last letter, tools: [{name: z, argv: [z]}]}
alpha:
  description: first letter
  safety: read-only
  tools: [{name: a, argv: [a, "--flag", "two words"]}]
mid: {"description": "json style", "safety": "forbidden", "tags": ["x"], "tools": [{"name": "m", "argv": ["m"]}]}
`
	c, err := catalog.Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"zeta", "alpha", "mid"}, c.IDs()); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
	z, _ := c.Get("zeta")
	if z.Safety != tools.ApprovalRequired {
		t.Errorf("absent safety = %q, want approval-required", z.Safety)
	}
	a, _ := c.Get("alpha")
	if diff := cmp.Diff([]string{"a", "--flag", "two words"}, a.Tools[0].Argv); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	m, _ := c.Get("mid")
	if m.Safety != tools.Forbidden {
		t.Errorf("mid safety = %q", m.Safety)
	}
	if _, ok := c.Get("nope"); ok {
		t.Error("Get of an unknown id succeeded")
	}
}

func TestGetReturnsCopies(t *testing.T) {
	c, err := catalog.Load([]byte("a: {description: d, tags: [t], tools: [{name: tl, argv: [tl]}]}"))
	if err != nil {
		t.Fatal(err)
	}
	cp, _ := c.Get("a")
	cp.Tags[0] = "changed"
	cp.Tools[0].Argv[0] = "changed"
	ids := c.IDs()
	ids[0] = "changed"
	again, _ := c.Get("a")
	if again.Tags[0] != "t" || again.Tools[0].Argv[0] != "tl" || c.IDs()[0] != "a" {
		t.Fatal("catalog was mutated through a returned value")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the error
	}{
		{"empty", "", []string{"empty"}},
		{"blank", "  \n\t", []string{"empty"}},
		{"not yaml", "a: [unclosed", []string{"not valid YAML"}},
		{"duplicate id", "a: {description: d, tools: [{name: tl, argv: [tl]}]}\na: {description: d, tools: [{name: tl, argv: [tl]}]}", []string{"not valid YAML"}},
		{"list root", "- a\n- b", []string{"root must be a mapping"}},
		{"scalar root", "hello", []string{"root must be a mapping"}},
		{"null root", "null", []string{"root must be a mapping"}},
		{"empty id", `"": {description: d, tools: [{name: tl, argv: [tl]}]}`, []string{"id must be a non-empty string"}},
		{"blank id", `"  ": {description: d, tools: [{name: tl, argv: [tl]}]}`, []string{"id must be a non-empty string"}},
		{"spec not mapping", "a: [1, 2]", []string{`capability "a"`, "must be a mapping"}},
		{"spec null", "a:", []string{`capability "a"`, "must be a mapping"}},
		{"missing description", "a: {tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "description"}},
		{"blank description", "a: {description: '  ', tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "description"}},
		{"description not string", "a: {description: [x], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "description"}},
		{"bad safety", "a: {description: d, safety: safe, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "safety", `"safe"`}},
		{"checkpoint safety", "a: {description: d, safety: checkpoint, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "safety"}},
		{"safety wrong case", "a: {description: d, safety: Read-Only, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "safety"}},
		{"no tools", "a: {description: d}", []string{`capability "a"`, "tools"}},
		{"empty tools", "a: {description: d, tools: []}", []string{`capability "a"`, "tools"}},
		{"tool not mapping", "a: {description: d, tools: [git]}", []string{`capability "a"`, "tools[0]", "mapping"}},
		{"tool without name", "a: {description: d, tools: [{argv: [tl]}]}", []string{`capability "a"`, "tools[0].name"}},
		{"tool blank name", "a: {description: d, tools: [{name: '', argv: [tl]}]}", []string{`capability "a"`, "tools[0].name"}},
		{"tool without argv", "a: {description: d, tools: [{name: tl}]}", []string{`capability "a"`, "tools[0].argv"}},
		{"tool empty argv", "a: {description: d, tools: [{name: tl, argv: []}]}", []string{`capability "a"`, "tools[0].argv"}},
		{"empty argv element", "a: {description: d, tools: [{name: tl, argv: [tl, '']}]}", []string{`capability "a"`, "tools[0].argv[1]"}},
		{"null argv element", "a: {description: d, tools: [{name: tl, argv: [tl, null]}]}", []string{`capability "a"`, "tools[0].argv[1]"}},
		{"argv not list", "a: {description: d, tools: [{name: tl, argv: git status}]}", []string{`capability "a"`, "tools[0]", "argv"}},
		{"second tool bad", "a: {description: d, tools: [{name: tl, argv: [tl]}, {name: tm}]}", []string{`capability "a"`, "tools[1].argv"}},
		{"blank tag", "a: {description: d, tags: [''], tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, "tags[0]"}},
		{"unknown capability field", "a: {description: d, owner: me, tools: [{name: tl, argv: [tl]}]}", []string{`capability "a"`, `unknown field "owner"`}},
		{"removed check_argv", "a: {description: d, tools: [{name: tl, argv: [tl], check_argv: [tl, --version]}]}", []string{`capability "a"`, "tools[0]", `unknown field "check_argv"`}},
		{"removed verify_argv", "a: {description: d, tools: [{name: tl, argv: [tl], verify_argv: [tl]}]}", []string{`capability "a"`, `unknown field "verify_argv"`}},
		{"removed rollback_argv", "a: {description: d, tools: [{name: tl, argv: [tl], rollback_argv: [tl]}]}", []string{`capability "a"`, `unknown field "rollback_argv"`}},
		{"error names later capability", "ok: {description: d, tools: [{name: tl, argv: [tl]}]}\nbad: {description: d, tools: []}", []string{`capability "bad"`, "tools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := catalog.Load([]byte(tt.src))
			if err == nil {
				t.Fatalf("Load succeeded with ids %v", c.IDs())
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadOrShipped(t *testing.T) {
	s, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	got, err := catalog.LoadOrShipped(nil)
	if err != nil || got != s {
		t.Fatalf("nil source: %v, %v (want the shipped catalog)", got, err)
	}
	own, err := catalog.LoadOrShipped([]byte("only: {description: d, tools: [{name: tl, argv: [tl]}]}"))
	if err != nil || !cmp.Equal(own.IDs(), []string{"only"}) {
		t.Fatalf("own source: %v, %v", own, err)
	}
	if _, err := catalog.LoadOrShipped([]byte{}); err == nil {
		t.Fatal("an empty (non-nil) source must be a load error, not the shipped catalog")
	}
}
