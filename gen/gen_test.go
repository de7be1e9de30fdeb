package gen_test

import (
	"flag"
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

var update = flag.Bool("update", false, "rewrite ../dist from a fresh render")

const distDir = "../dist"

// TestDistIsFresh is the freshness check: the committed dist/ must equal a fresh
// render. `go generate ./...` (or this test with -update) rewrites it.
func TestDistIsFresh(t *testing.T) {
	files, err := gen.Render(tools.Default())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := gen.Write(distDir, files); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(distDir, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s is missing from dist/: run go generate ./...", name)
			continue
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("dist/%s is stale (-fresh +committed); run go generate ./...:\n%s", name, diff)
		}
	}
	stale, err := gen.Stale(distDir, files)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Errorf("dist/ has files no longer generated: %v", stale)
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	a, err := gen.Render(tools.Default())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := gen.Render(tools.Default())
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("two renders differ:\n%s", diff)
	}
	for name, data := range a {
		if path.Ext(name) == ".png" {
			continue
		}
		if len(data) == 0 || data[len(data)-1] != '\n' {
			t.Errorf("%s must end with a newline", name)
		}
	}
}

// A description change without regenerating must fail the freshness comparison.
func TestFreshnessNoticesADescriptionChange(t *testing.T) {
	dir := t.TempDir()
	files, err := gen.Render(tools.Default())
	if err != nil {
		t.Fatal(err)
	}
	if err := gen.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	reg := tools.New()
	for _, tl := range tools.Default().Tools() {
		reg.Register(renamed{tl})
	}
	changed, err := gen.Render(reg)
	if err != nil {
		t.Fatal(err)
	}
	var differ []string
	for name, data := range changed {
		old, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if string(old) != string(data) {
			differ = append(differ, name)
		}
	}
	if !slices.Contains(differ, "claude/agents/windows-orchestrator.md") {
		t.Fatalf("a changed tool title went unnoticed; differing files: %v", differ)
	}
}

type renamed struct{ tools.Tool }

func (r renamed) Title() string { return r.Tool.Title() + " (changed)" }

// TestShippedTableIsFresh: the hooks' generated table of the shipped tools must equal a
// fresh render of the registry and the shipped catalog (go generate ./... rewrites it).
func TestShippedTableIsFresh(t *testing.T) {
	cat, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	want, err := gen.ShippedTable(tools.Default(), cat)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", filepath.FromSlash(gen.ShippedTablePath))
	if *update {
		if err := gen.WriteFile(path, want); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is stale (-fresh +committed); run go generate ./...:\n%s", gen.ShippedTablePath, diff)
	}
}

// TestShippedTableClassifiesLikeTheTools: for a spread of arguments, the table the hooks
// use (the classes and the argv of the shipped catalog, with the shell classifier) gives
// every tool the class the tool itself gives; a drive after `dotnet format` is forbidden
// only after the shipped argv (issue 22 §1).
func TestShippedTableClassifiesLikeTheTools(t *testing.T) {
	argsList := []tools.Args{{}, {"execute": true}, {"execute": false}, {"include_host": true}, {"config_path": "x"},
		{"execute": true, "capability": "test-go"}, {"execute": true, "capability": "create-pr"},
		{"execute": true, "capability": "test-go", "extra_args": []any{"-v"}}, {"execute": true, "capability": "nope"},
		{"execute": true, "capability": "format-dotnet", "extra_args": []any{"D:"}},
		{"execute": true, "capability": "formatting-dotnet", "extra_args": []any{`C:\`}},
		{"execute": true, "command": "cmd.exe /c format D:"}}
	lookup := func(id string) (tools.Class, bool) { c, ok := classify.ShippedCatalog[id]; return c, ok }
	o := tools.Oracles{Catalog: lookup, CatalogArgv: classify.ShippedCatalogArgv, Shell: classify.Shell}
	for _, tl := range tools.Default().Tools() {
		sp, ok := classify.Shipped.Lookup(tl.Name())
		if !ok {
			t.Errorf("%s is not in the table", tl.Name())
			continue
		}
		for _, a := range argsList {
			if got, want := sp.Classes.With(a, o), tl.Classify(a); got != want {
				t.Errorf("%s %v: table says %s, the tool %s", tl.Name(), a, got, want)
			}
		}
	}
}
