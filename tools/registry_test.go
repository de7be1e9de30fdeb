package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools"
)

func named(name string) tools.Tool {
	return tools.Define(tools.Def[struct{}, tools.Status]{Name: name, Description: "d", Classes: tools.Classification{Base: tools.ReadOnly},
		Starts: tools.NeverCond, Statuses: []string{"ok"},
		Handle: func(context.Context, *tools.Env, struct{}) (tools.Status, error) {
			return tools.Status{Status: "ok"}, nil
		}})
}

// TestSubset (issue 25 §3): a subset holds the named tools; a name the registry lacks is
// an error naming it and what to import, not a panic, and leaves nothing half-built.
func TestSubset(t *testing.T) {
	t.Parallel()
	r := tools.New()
	for _, n := range []string{"a", "b", "c"} {
		r.Register(named(n))
	}
	for _, c := range []struct {
		names []string
		want  []string
		err   string
	}{
		{[]string{"c", "a"}, []string{"a", "c"}, ""},
		{[]string{"a", "a"}, []string{"a"}, ""},
		{nil, []string{}, ""},
		{[]string{"a", "env_inspect"}, nil, `no tool named "env_inspect" is registered`},
	} {
		s, err := r.Subset(c.names...)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "tools/all") || s != nil {
				t.Errorf("Subset(%v) = %v, %v; want nil and an error with %q naming tools/all", c.names, s, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Subset(%v): %v", c.names, err)
		}
		if diff := cmp.Diff(c.want, s.Names()); diff != "" {
			t.Errorf("Subset(%v) names (-want +got):\n%s", c.names, diff)
		}
	}
}
