package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools"
)

// TestExtend (issue 23 §2): a user catalog adds ids after the base's, redefines an id
// in the base's place, and never lowers a base class; the base is left as it was.
func TestExtend(t *testing.T) {
	t.Parallel()
	base := mustLoad(t, `
a: {description: base a, safety: reversible, tools: [{name: x, argv: [x, a]}]}
b: {description: base b, safety: approval-required, tools: [{name: x, argv: [x, b]}]}
c: {description: base c, safety: read-only, tools: [{name: x, argv: [x, c]}]}
`)
	user := mustLoad(t, `
new2: {description: user new2, safety: read-only, tools: [{name: y, argv: [y, "2"]}]}
b: {description: user b, safety: read-only, tools: [{name: y, argv: [y, b]}]}
c: {description: user c, safety: approval-required, tools: [{name: y, argv: [y, c]}]}
new1: {description: user new1, tools: [{name: y, argv: [y, "1"]}]}
`)
	got := Extend(base, user)
	if diff := cmp.Diff([]string{"a", "b", "c", "new2", "new1"}, got.IDs()); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	for _, w := range []struct {
		id, desc string
		class    tools.Class
		argv1    string
	}{
		{"a", "base a", tools.Reversible, "a"},
		{"b", "user b", tools.ApprovalRequired, "b"}, // read-only asked: the base's class stands
		{"c", "user c", tools.ApprovalRequired, "c"}, // raised
		{"new2", "user new2", tools.ReadOnly, "2"},
		{"new1", "user new1", tools.ApprovalRequired, "1"},
	} {
		cp, ok := got.Get(w.id)
		if !ok || cp.Description != w.desc || cp.Safety != w.class || cp.Tools[0].Argv[1] != w.argv1 {
			t.Errorf("%s: %+v %v, want %q %s argv[1] %q", w.id, cp, ok, w.desc, w.class, w.argv1)
		}
	}
	if cp, _ := base.Get("b"); cp.Description != "base b" || len(base.IDs()) != 3 {
		t.Errorf("the base changed: %+v, %v", cp, base.IDs())
	}
}

func mustLoad(t *testing.T, src string) *Catalog {
	t.Helper()
	c, err := Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
