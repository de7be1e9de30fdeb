package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

type fuzzIn struct {
	Name  string   `json:"name" jsonschema:"required,maxLength=16"`
	Count int      `json:"count,omitempty" jsonschema:"minimum=1,maximum=600,default=120"`
	On    bool     `json:"on,omitempty" jsonschema:"default=false"`
	Mode  string   `json:"mode,omitempty" jsonschema:"enum=a,enum=b,default=a"`
	Items []string `json:"items,omitempty" jsonschema:"maxItems=4"`
}

// FuzzValidate: whatever the bytes, Validate never panics, and what it accepts obeys
// every rule it claims to enforce, with defaults in place.
func FuzzValidate(f *testing.F) {
	for _, seed := range []string{``, `{}`, `null`, `[]`, `{"name":"x"}`, `{"name":"x","count":120.0}`,
		`{"name":"x","on":"false"}`, `{"name":"x","mode":"c"}`, `{"name":"x","items":["a",1]}`,
		`{"name":"x","zz":1}`, `{"name":"` + strings.Repeat("y", 17) + `"}`, `{"name":"x","count":1e2}`,
		`{"name":"x","count":null,"on":null,"mode":null,"items":null}`, `{"name":null}`} {
		f.Add([]byte(seed))
	}
	s := For[fuzzIn]()
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := Validate(s, raw)
		if err != nil {
			if _, ok := err.(*ArgError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		name, ok := args["name"].(string)
		if !ok || len([]rune(name)) > 16 {
			t.Fatalf("accepted name %#v", args["name"])
		}
		n, ok := args["count"].(json.Number)
		if !ok || strings.ContainsAny(string(n), ".eE") {
			t.Fatalf("accepted count %#v", args["count"])
		}
		if i, err := n.Int64(); err != nil || i < 1 || i > 600 {
			t.Fatalf("accepted count %v", n)
		}
		if _, ok := args["on"].(bool); !ok {
			t.Fatalf("on missing or not a bool: %#v", args["on"])
		}
		if m := args["mode"]; m != "a" && m != "b" {
			t.Fatalf("accepted mode %#v", m)
		}
		if items, ok := args["items"]; ok {
			list, ok := items.([]any)
			if !ok || len(list) > 4 {
				t.Fatalf("accepted items %#v", items)
			}
			for _, it := range list {
				if _, ok := it.(string); !ok {
					t.Fatalf("accepted item %#v", it)
				}
			}
		}
		for k := range args {
			if _, ok := s.Properties.Get(k); !ok {
				t.Fatalf("accepted unknown key %q", k)
			}
		}
	})
}
