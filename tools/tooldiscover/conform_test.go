package tooldiscover_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/windows-dev-agent/wda/schema"
)

// conforms checks v (any Go value, marshalled to JSON) against s with the subset of
// JSON Schema the reflector emits: type, enum, properties, required,
// additionalProperties, items and oneOf. It is what an MCP client that validates
// structuredContent against outputSchema would do.
func conforms(t *testing.T, s *schema.Schema, v any) {
	t.Helper()
	sb, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var sm, vm any
	if err := json.Unmarshal(sb, &sm); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(vb, &vm); err != nil {
		t.Fatal(err)
	}
	if err := check("$", sm, vm); err != nil {
		t.Fatalf("output does not conform to the output schema: %v\n%s", err, vb)
	}
}

func check(path string, s, v any) error {
	if b, ok := s.(bool); ok {
		if !b {
			return fmt.Errorf("%s: schema false", path)
		}
		return nil
	}
	m := s.(map[string]any)
	if one, ok := m["oneOf"].([]any); ok {
		n := 0
		for _, sub := range one {
			if check(path, sub, v) == nil {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("%s: %d oneOf branches match %v", path, n, v)
		}
	}
	if typ, ok := m["type"].(string); ok {
		if !hasType(typ, v) {
			return fmt.Errorf("%s: %v is not a %s", path, v, typ)
		}
	}
	if enum, ok := m["enum"].([]any); ok && !slices.Contains(enum, v) {
		return fmt.Errorf("%s: %v not in %v", path, v, enum)
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := m["properties"].(map[string]any)
		for _, r := range asStrings(m["required"]) {
			if _, ok := x[r]; !ok {
				return fmt.Errorf("%s: missing required %s", path, r)
			}
		}
		for k, val := range x {
			if ps, ok := props[k]; ok {
				if err := check(path+"."+k, ps, val); err != nil {
					return err
				}
				continue
			}
			if ap, ok := m["additionalProperties"]; ok {
				if err := check(path+"."+k, ap, val); err != nil {
					return fmt.Errorf("%s: property %s: %w", path, k, err)
				}
			}
		}
	case []any:
		if items, ok := m["items"]; ok {
			for i, it := range x {
				if err := check(fmt.Sprintf("%s[%d]", path, i), items, it); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func hasType(typ string, v any) bool {
	switch typ {
	case "null":
		return v == nil
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case "number":
		_, ok := v.(float64)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}

func asStrings(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		out = append(out, x.(string))
	}
	return out
}
