package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gschema "github.com/google/jsonschema-go/jsonschema"
)

type outEntry struct {
	Available bool    `json:"available" jsonschema:"required,description=Whether it was found."`
	Path      string  `json:"path,omitempty" jsonschema:"description=Absolute path."`
	Version   *string `json:"version" jsonschema:"required,nullable,description=null when not established."`
}

type outGroup struct {
	A outEntry `json:"a" jsonschema:"required"`
	B outEntry `json:"b" jsonschema:"required"`
	C outEntry `json:"c" jsonschema:"required"`
}

type outIn struct {
	Name    string `json:"name" jsonschema:"required,description=What to find."`
	Execute bool   `json:"execute,omitempty" jsonschema:"default=false"`
}

type outOut struct {
	Status  string    `json:"status" jsonschema:"required"`
	Group   *outGroup `json:"group,omitempty" jsonschema:"description=The group."`
	Other   outEntry  `json:"other"`
	Kind    string    `json:"kind,omitempty" jsonschema:"enum=x,enum=y"`
	Tags    []string  `json:"tags,omitempty"`
	Labels  []string  `json:"labels,omitempty"`
	Notes   []string  `json:"notes,omitempty"`
	Note    *string   `json:"note" jsonschema:"nullable"`
	Echo    *outIn    `json:"echo,omitempty" jsonschema:"description=These arguments again."`
	Numbers []int     `json:"numbers,omitempty"`
}

// TestOutputSaysEachThingOnce: the output schema describes a repeated type once in
// $defs under its Go name, echoes of the input as an object, "X or null" as a type
// list, an enum without "string" and an object by its properties; no descriptions, no
// "$schema", additionalProperties:false and required at the root only; and it keeps
// the status vocabulary as its enum (issue 24, "Definitions").
func TestOutputSaysEachThingOnce(t *testing.T) {
	t.Parallel()
	s := OutputOf(reflect.TypeFor[outOut](), reflect.TypeFor[outIn](), []string{"ok", "failed"})
	got := string(Compact(s))
	for _, want := range []string{
		`"$defs":{"outEntry":{"properties":{"available":{"type":"boolean"},"path":{"type":"string"},"version":{"type":["string","null"]}}}}`,
		`"a":{"$ref":"#/$defs/outEntry"}`, `"other":{"$ref":"#/$defs/outEntry"}`,
		`"status":{"enum":["ok","failed"]}`, `"kind":{"enum":["x","y"]}`,
		`"echo":{"type":"object"}`,
		`"note":{"type":["string","null"]}`,
		`"additionalProperties":false,"type":"object","required":["status"]}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output schema lacks %s:\n%s", want, got)
		}
	}
	for _, never := range []string{`"description"`, `"$schema"`, `"required":["available"`, `"required":["a"`} {
		if strings.Contains(got, never) {
			t.Errorf("output schema has %s:\n%s", never, got)
		}
	}
	if strings.Count(got, `"available"`) != 1 {
		t.Errorf("outEntry is described more than once:\n%s", got)
	}
	if in := string(Compact(ForType(reflect.TypeFor[outIn]()))); strings.Contains(in, "$schema") || !strings.Contains(in, `"description":"What to find."`) {
		t.Errorf("input schema: %s", in)
	}
}

// TestOutputAdmitsWhatTheInlineSchemaAdmits: every value the tool's inline schema
// admits conforms to the output schema (sharing, type lists and what normalize drops
// only ever widen it below the root), and the output schema still refuses a wrong
// status, a wrong type or enum word at any depth, and an unknown key at the root.
func TestOutputAdmitsWhatTheInlineSchemaAdmits(t *testing.T) {
	t.Parallel()
	compile := func(s *Schema) *gschema.Resolved {
		var gs gschema.Schema
		if err := json.Unmarshal(Compact(s), &gs); err != nil {
			t.Fatal(err)
		}
		rs, err := gs.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	inline := ForType(reflect.TypeFor[outOut]())
	st, _ := inline.Properties.Get("status")
	st.Enum = []any{"ok", "failed"}
	inlineRS := compile(inline)
	output := compile(OutputOf(reflect.TypeFor[outOut](), reflect.TypeFor[outIn](), []string{"ok", "failed"}))
	for _, c := range []struct {
		v    string
		want bool // the output schema admits it
	}{
		{`{"status":"ok","note":null}`, true},
		{`{"status":"ok","note":"x","group":{"a":{"available":true,"version":null},"b":{"available":false,"version":"1"},"c":{"available":true,"path":"/x","version":null}}}`, true},
		{`{"status":"ok","echo":{"name":"n","execute":true}}`, true},
		{`{"status":"ok","group":{"a":{"available":true}}}`, true},                    // below the root, presence is the docs'
		{`{"status":"ok","other":{"available":true,"version":null,"extra":1}}`, true}, // and so are unknown keys
		{`{"status":"nope"}`, false}, {`{}`, false}, {`{"status":"ok","zzz":1}`, false},
		{`{"status":"ok","kind":"z"}`, false}, {`{"status":"ok","other":{"available":"yes","version":null}}`, false},
		{`{"status":"ok","other":{"available":true,"version":7}}`, false}, {`{"status":"ok","note":7}`, false},
		{`{"status":"ok","tags":[1]}`, false}, {`{"status":"ok","echo":[]}`, false},
		{`{"status":"ok","group":{"b":{"version":false}}}`, false},
	} {
		var inst any
		if err := json.Unmarshal([]byte(c.v), &inst); err != nil {
			t.Fatal(err)
		}
		err := output.Validate(inst)
		if (err == nil) != c.want {
			t.Errorf("%s: output schema says %v, want admitted %v", c.v, err, c.want)
		}
		if inlineRS.Validate(inst) == nil && err != nil {
			t.Errorf("%s: admitted inline, refused by the output schema: %v", c.v, err)
		}
	}
}

// TestShareNamesShapes: a repeated part without a Go type is named after its shape,
// and only what saves bytes is shared (three short lists are cheaper inline).
func TestShareNamesShapes(t *testing.T) {
	t.Parallel()
	s := OutputOf(reflect.TypeFor[outOut](), nil, nil)
	var names []string
	for k := range s.Definitions {
		names = append(names, k)
	}
	if d := cmp.Diff([]string{"outEntry"}, names); d != "" {
		t.Errorf("$defs (-want +got):\n%s\n%s", d, Compact(s))
	}
	for c, want := range map[string]string{
		`{"items":{"type":"string"},"type":"array"}`:              "strings",
		`{"type":"string","enum":["a","b"]}`:                      "a_b",
		`{"oneOf":[{"type":"integer"},{"type":"null"}]}`:          "integer_or_null",
		`{"items":{"type":"string"},"type":"array","maxItems":3}`: "",
		`{"type":"object","properties":{"x":{"type":"string"}}}`:  "",
	} {
		if got := shapeName(c); got != want {
			t.Errorf("shapeName(%s) = %q, want %q", c, got, want)
		}
	}
}

type outNullable struct {
	Status string    `json:"status" jsonschema:"required"`
	Next   *outEntry `json:"next" jsonschema:"nullable"`
}

// TestNullableObjectStaysAnObject: an object or null keeps "type":"object" on its
// object branch, so null matches exactly one branch of the oneOf.
func TestNullableObjectStaysAnObject(t *testing.T) {
	t.Parallel()
	s := OutputOf(reflect.TypeFor[outNullable](), nil, nil)
	var gs gschema.Schema
	if err := json.Unmarshal(Compact(s), &gs); err != nil {
		t.Fatal(err)
	}
	rs, err := gs.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{map[string]any{"status": "ok", "next": nil}, map[string]any{"status": "ok", "next": map[string]any{"available": true}}} {
		if err := rs.Validate(v); err != nil {
			t.Errorf("%v: %v\n%s", v, err, Compact(s))
		}
	}
}

func TestShapeNameOfATypeList(t *testing.T) {
	t.Parallel()
	if got := shapeName(`{"type":["string","null"]}`); got != "string_or_null" {
		t.Errorf("shapeName = %q", got)
	}
}
