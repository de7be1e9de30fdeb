package testkit_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
)

// inner is embedded without a JSON name, so its required field is inherited by out.
type inner struct {
	Kind string `json:"kind" jsonschema:"required,enum=a,enum=b"`
}

type item struct {
	Name string `json:"name" jsonschema:"required"`
}

type in struct {
	Query string `json:"query" jsonschema:"required,maxLength=4"`
}

type out struct {
	tools.Status
	inner
	Code  *int   `json:"code" jsonschema:"nullable"`
	Count int    `json:"count,omitempty"`
	Items []item `json:"items,omitempty"`
}

var tool = tools.Define(tools.Def[in, out]{
	Name:        "conform_probe",
	Description: "A tool whose schemas exercise every keyword the reflector emits.",
	Classes:     tools.Classification{Base: tools.ReadOnly},
	Statuses:    []string{"ok"},
	Handle: func(_ context.Context, _ *tools.Env, a in) (out, error) {
		return out{Status: tools.Status{Status: a.Query}, inner: inner{Kind: "a"}}, nil
	},
})

// TestCheckOutput covers each keyword the reflector emits (type, enum, properties,
// required, additionalProperties, items, oneOf), the keywords the three per-tool
// validators that CheckOutput replaced implemented by hand.
func TestCheckOutput(t *testing.T) {
	tests := []struct {
		name string
		out  any
		ok   bool
	}{
		{"typed value", out{Status: tools.Status{Status: "ok"}, inner: inner{Kind: "a"}, Items: []item{{Name: "x"}}}, true},
		{"null branch of nullable", map[string]any{"status": "ok", "kind": "b", "code": nil}, true},
		{"integer branch of nullable", map[string]any{"status": "ok", "kind": "b", "code": 3}, true},
		{"missing required", map[string]any{"kind": "a"}, false},
		{"missing inherited required", map[string]any{"status": "ok"}, false},
		{"wrong type", map[string]any{"status": 1, "kind": "a"}, false},
		{"not an integer", map[string]any{"status": "ok", "kind": "a", "count": 1.5}, false},
		{"outside enum", map[string]any{"status": "ok", "kind": "c"}, false},
		{"unknown property", map[string]any{"status": "ok", "kind": "a", "extra": true}, false},
		{"no oneOf branch", map[string]any{"status": "ok", "kind": "a", "code": "3"}, false},
		{"bad item", map[string]any{"status": "ok", "kind": "a", "items": []any{map[string]any{"name": 1}}}, false},
		// Below the root an output schema says types, not presence (schema.OutputOf).
		{"item without its name", map[string]any{"status": "ok", "kind": "a", "items": []any{map[string]any{}}}, true},
		{"not an object", []any{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := testkit.CheckOutput(tool, tt.out)
			if (err == nil) != tt.ok {
				t.Errorf("CheckOutput(%v) = %v, want ok %v", tt.out, err, tt.ok)
			}
		})
	}
}

func TestCheckInput(t *testing.T) {
	tests := []struct {
		args map[string]any
		ok   bool
	}{
		{map[string]any{"query": "abc"}, true},
		{map[string]any{}, false},
		{map[string]any{"query": "abcde"}, false},
		{map[string]any{"query": "a", "other": 1}, false},
	}
	for _, tt := range tests {
		if err := testkit.CheckInput(tool, tt.args); (err == nil) != tt.ok {
			t.Errorf("CheckInput(%v) = %v, want ok %v", tt.args, err, tt.ok)
		}
	}
}

func TestCall(t *testing.T) {
	m, raw := mcptest.Call(t, tool, &tools.Env{}, tools.Args{"query": "ok"})
	want := map[string]any{"status": "ok", "execution_started": false, "kind": "a", "code": nil}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("Call map (-want +got):\n%s", diff)
	}
	if string(raw) != `{"status":"ok","execution_started":false,"kind":"a","code":null}` {
		t.Errorf("Call encoding %s", raw)
	}
}

func TestFixtures(t *testing.T) {
	dir := testkit.TempDir(t)
	if real, err := filepath.EvalSymlinks(dir); err != nil || real != dir || !filepath.IsAbs(dir) {
		t.Fatalf("TempDir %q is not its own real path (%q, %v)", dir, real, err)
	}
	p := filepath.Join(dir, "a", "b", "f.txt")
	testkit.WriteFile(t, p, "content")
	if b, err := os.ReadFile(p); err != nil || string(b) != "content" {
		t.Fatalf("WriteFile: %q, %v", b, err)
	}
}
