package catalog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/catalog"
)

// The YAML features a hand-written catalog uses: order, anchors, merge keys, typing.
func TestLoadYAMLFeatures(t *testing.T) {
	tests := []struct {
		name, src string
		ids       []string
		argv      map[string][]string
		safety    map[string]string
	}{
		{
			name: "document order, not sorted",
			src:  "zeta: {description: d, tools: [{name: z, argv: [z]}]}\nalpha: {description: d, tools: [{name: a, argv: [a]}]}\nmid: {description: d, tools: [{name: m, argv: [m]}]}",
			ids:  []string{"zeta", "alpha", "mid"},
		},
		{
			name: "alias of an argv",
			src:  "a: {description: d, tools: [{name: g, argv: &g [git, status]}]}\nb: {description: d, tools: [{name: g, argv: *g}]}",
			ids:  []string{"a", "b"},
			argv: map[string][]string{"b": {"git", "status"}},
		},
		{
			name:   "merge key, explicit field wins",
			src:    "base: &base {description: d, safety: read-only, tools: [{name: g, argv: [git]}]}\nwrite:\n  <<: *base\n  safety: reversible\n",
			ids:    []string{"base", "write"},
			argv:   map[string][]string{"write": {"git"}},
			safety: map[string]string{"base": "read-only", "write": "reversible"},
		},
		{
			name:   "merge list, earlier wins",
			src:    "x: &x {safety: forbidden}\ny: &y {description: d, safety: read-only, tools: [{name: g, argv: [git]}]}\nz:\n  <<: [*x, *y]\n",
			ids:    []string{"x", "y", "z"},
			safety: map[string]string{"z": "forbidden"},
		},
		{
			name: "YAML 1.2 words are strings",
			src:  "yes: {description: d, tools: [{name: on, argv: [on, no, off]}]}",
			ids:  []string{"yes"},
			argv: map[string][]string{"yes": {"on", "no", "off"}},
		},
		{
			name: "JSON",
			src:  `{"b": {"description": "d", "tools": [{"name": "b", "argv": ["b", "--x"]}]}, "a": {"description": "d", "tools": [{"name": "a", "argv": ["a"]}]}}`,
			ids:  []string{"b", "a"},
			argv: map[string][]string{"b": {"b", "--x"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if tt.name == "merge list, earlier wins" {
				// x alone has no description and no tools, so it is not a capability.
				src = strings.Replace(src, "x: &x {safety: forbidden}\n", "x: &x {description: d, safety: forbidden, tools: [{name: h, argv: [h]}]}\n", 1)
			}
			c, err := catalog.Load([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.ids, c.IDs()); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			for id, want := range tt.argv {
				cp, _ := c.Get(id)
				if diff := cmp.Diff(want, cp.Tools[0].Argv); diff != "" {
					t.Errorf("%s argv (-want +got):\n%s", id, diff)
				}
			}
			for id, want := range tt.safety {
				cp, _ := c.Get(id)
				if string(cp.Safety) != want {
					t.Errorf("%s safety = %s, want %s", id, cp.Safety, want)
				}
			}
		})
	}
}

func TestLoadYAMLRefusals(t *testing.T) {
	// 100 capabilities × 100 tools × 100 arguments from a few kilobytes.
	var b strings.Builder
	b.WriteString("x: {description: &w d, tools: [&t {name: t, argv: [t" + strings.Repeat(", *w", 99) + "]}]}\n")
	b.WriteString("l: {description: d, tools: &L [*t" + strings.Repeat(", *t", 99) + "]}\n")
	for i := range 100 {
		fmt.Fprintf(&b, "c%d: {description: d, tools: *L}\n", i)
	}
	bomb := b.String()
	tests := []struct {
		name, src string
		want      []string
	}{
		{"integer id", "1: {description: d, tools: [{name: t, argv: [t]}]}", []string{"capability id 1", "quote it"}},
		{"boolean id", "true: {description: d, tools: [{name: t, argv: [t]}]}", []string{"capability id true", "quote it"}},
		{"second document", "a: {description: d, tools: [{name: t, argv: [t]}]}\n---\nb: {}\n", []string{"one YAML document", "line 2"}},
		{"duplicate field", "a: {description: d, description: e, tools: [{name: t, argv: [t]}]}", []string{"already defined"}},
		{"duplicate id names both lines", "a: {description: d, tools: [{name: t, argv: [t]}]}\na: {description: d, tools: [{name: t, argv: [t]}]}", []string{"line 2", "line 1"}},
		{"number argument", "a: {description: d, tools: [{name: t, argv: [t, 1]}]}", []string{"tools[0].argv[1]", "line 1"}},
		{"merge of a scalar", "a:\n  <<: x\n  description: d\n", []string{"merge at line 2"}},
		{"mapping key", "a: {? [k] : v}", []string{"key at line 1 must be a scalar"}},
		{"alias bomb", bomb, []string{"aliases expand"}},
		{"error line", "a:\n  description: d\n  safety: nope\n  tools: [{name: t, argv: [t]}]\n", []string{`got "nope" at line 3`}},
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
