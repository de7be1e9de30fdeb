package runtime_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools/all"
)

// TestNullIsAbsentForEveryTool: for every argument of every shipped tool, read from
// its input schema (so a field added later is covered without touching this test), a
// null for an optional argument validates exactly like leaving it out (defaults
// included), and a null for a required one is refused with a message naming it
// (docs/architecture.md, "The call pipeline", step 2). The pipeline validates with this
// same validator before it binds or classifies anything.
func TestNullIsAbsentForEveryTool(t *testing.T) {
	t.Parallel()
	for _, tl := range all.New(all.Config{}).Tools() {
		in := schema.In(tl)
		v := schema.Of(tl).Validator
		baseline := func() map[string]any {
			m := map[string]any{}
			for _, r := range in.Required {
				p, _ := in.Properties.Get(r)
				m[r] = sampleValue(p)
			}
			return m
		}
		want, err := v.ValidateMap(baseline())
		if err != nil {
			t.Fatalf("%s: the generated required arguments do not validate (teach sampleValue the new schema): %v", tl.Name(), err)
		}
		for p := in.Properties.Oldest(); p != nil; p = p.Next() {
			name := p.Key
			t.Run(tl.Name()+"/"+name, func(t *testing.T) {
				args := baseline()
				args[name] = nil
				got, err := v.ValidateMap(args)
				if slices.Contains(in.Required, name) {
					msg := name + " is required and must not be null"
					if err == nil || err.Error() != msg {
						t.Errorf("null for the required %s: error %v, want %q", name, err, msg)
					}
					return
				}
				if err != nil {
					t.Fatalf("null for the optional %s was refused: %v", name, err)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("null for %s is not the same as leaving it out (-absent +null):\n%s", name, d)
				}
			})
		}
	}
}

// sampleValue is a value that satisfies a simple property schema: the first enum
// value, or the smallest value of its type within its bounds.
func sampleValue(s *schema.Schema) any {
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch s.Type {
	case "string":
		n := 1
		if s.MinLength != nil {
			n = max(n, int(*s.MinLength)) //nolint:gosec // G115: a schema's small bound
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = 'x'
		}
		return string(b)
	case "integer", "number":
		if s.Minimum != "" {
			return s.Minimum
		}
		return json.Number("1")
	case "boolean":
		return false
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return nil
}
