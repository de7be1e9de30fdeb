// Package schema owns the one JSON Schema configuration used for every tool input and
// output, the rendering of those schemas as the bytes tools/list sends, and the strict
// argument validator every tools/call passes before a handler runs
// (docs/architecture.md, "The call pipeline", step 2).
//
// It must never import the MCP core, a host or any tool: schemas are a pure function of
// Go types and the declared status vocabulary.
package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/invopop/jsonschema"
)

// Schema is the schema representation used across the project.
type Schema = jsonschema.Schema

// reflector is the single invopop configuration: everything inline (no $ref root, no
// $defs; Output shares repeated parts afterwards), no $id, additionalProperties:false
// on every struct, and only fields tagged `jsonschema:"required"` are required: an
// output lists what may appear, and requires only what always does (status), so a
// pipeline refusal still conforms.
func reflector() *jsonschema.Reflector {
	return &jsonschema.Reflector{DoNotReference: true, Anonymous: true, RequiredFromJSONSchemaTags: true}
}

// For returns the schema of T. It panics on a schema that clients cannot consume
// (a non-object root or a bare `true` sub-schema), because that is a programming error
// that every test binary should surface at start-up. It carries no "$schema": MCP
// (2025-11-25) reads a schema without one as JSON Schema 2020-12, the dialect these are
// written in, and the 56 bytes would be sent with every model request for every tool.
func For[T any]() *Schema { return ForType(reflect.TypeFor[T]()) }

// ForType is For for a reflect.Type.
func ForType(t reflect.Type) *Schema {
	s := reflector().ReflectFromType(t)
	s.Version = ""
	if s.Type != "object" {
		panic(fmt.Sprintf("schema: %v must reflect to an object schema, got %q", t, s.Type))
	}
	if path := bareTrue(s, "#"); path != "" {
		panic(fmt.Sprintf("schema: %v has a bare true sub-schema at %s; give the field a concrete type", t, path))
	}
	return s
}

// Output is the output schema of t with the tool's status vocabulary as the enum of
// its status property, so hosts and models see every word a result can carry. It is
// OutputOf without an input type.
func Output(t reflect.Type, statuses []string) *Schema { return OutputOf(t, nil, statuses) }

// OutputOf is the output schema of a tool whose input type is in (nil: none), made to
// say each thing once (docs/architecture.md, "What a tool declares"):
//   - the status enum is the tool's vocabulary;
//   - a result field that echoes the tool's own input (execute_arguments) is "an
//     object": its shape is the input schema the host already holds;
//   - descriptions are dropped: the output schema is the shape a host validates, and
//     what each field means, and when it is present, is in the tool's docs/tools page;
//   - below the root: no additionalProperties:false, no required lists, no "object"
//     type beside properties, no "string" type on an enum of strings (normalize);
//   - "X or null" is a type list where X is plain (nullable);
//   - every part that repeats is described once in $defs (share).
func OutputOf(t, in reflect.Type, statuses []string) *Schema {
	s := ForType(t)
	if st, ok := s.Properties.Get("status"); ok && len(statuses) > 0 {
		cp := *st
		cp.Enum = make([]any, len(statuses))
		for i, w := range slices.Clone(statuses) {
			cp.Enum[i] = w
		}
		s.Properties.Set("status", &cp)
	}
	var echo string
	if in != nil {
		e := ForType(in)
		normalizeAll(e)
		echo = canonical(e)
	}
	normalize(s)
	if echo != "" {
		walk(s, "", func(sub *Schema, _ string) {
			if canonical(sub) == echo {
				*sub = Schema{Type: "object"}
			}
		})
	}
	s.AdditionalProperties = jsonschema.FalseSchema
	share(s, typeNames(t))
	return s
}

// normalize drops from the sub-schemas of s what a host validating a result does not
// need said: descriptions, additionalProperties:false, required lists, the "object"
// type beside properties and the "string" type of an enum of strings (the properties
// and the words say them); and it spells "X or null" as a type list (nullable). The
// root keeps its type and required list (OutputOf's).
func normalize(s *Schema) {
	typ, required := s.Type, s.Required
	defer func() { s.Type, s.Required = typ, required }()
	normalizeAll(s)
}

// normalizeAll is normalize of s as a sub-schema: its root too.
func normalizeAll(s *Schema) {
	walk(&Schema{Items: s}, "", func(sub *Schema, _ string) {
		sub.Description = ""
		sub.Required = nil
		if sub.Type == "object" && sub.AdditionalProperties == jsonschema.FalseSchema {
			sub.AdditionalProperties = nil
		}
		if sub.Type == "object" && sub.Properties != nil && sub.Properties.Len() > 0 {
			sub.Type = ""
		}
		// "X or null" is anyOf: X without its "object" type admits null as well, and
		// oneOf would then refuse null for matching both.
		if len(sub.OneOf) == 2 && sub.OneOf[1] != nil && sub.OneOf[1].Type == "null" {
			sub.AnyOf, sub.OneOf = sub.OneOf, nil
		}
		if sub.Type == "string" && len(sub.Enum) > 0 && allStrings(sub.Enum) {
			sub.Type = ""
		}
	})
	nullable(s)
}

func allStrings(l []any) bool {
	for _, v := range l {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// bareTrue reports the path of the first sub-schema that would marshal to `true`.
func bareTrue(s *Schema, path string) string {
	if s == nil {
		return ""
	}
	if s == jsonschema.TrueSchema || isEmpty(s) {
		return path
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			if r := bareTrue(p.Value, path+"/properties/"+p.Key); r != "" {
				return r
			}
		}
	}
	if s.Items != nil {
		if r := bareTrue(s.Items, path+"/items"); r != "" {
			return r
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties != jsonschema.FalseSchema {
		if r := bareTrue(s.AdditionalProperties, path+"/additionalProperties"); r != "" {
			return r
		}
	}
	for i, sub := range s.AnyOf {
		if r := bareTrue(sub, fmt.Sprintf("%s/anyOf/%d", path, i)); r != "" {
			return r
		}
	}
	for i, sub := range s.OneOf {
		if r := bareTrue(sub, fmt.Sprintf("%s/oneOf/%d", path, i)); r != "" {
			return r
		}
	}
	return ""
}

// isEmpty reports whether s constrains nothing (it would marshal to true or {}). The
// reflector fills only the fields below; checking them directly keeps start-up from
// marshalling every sub-schema at every level, which it once spent most of its time on.
func isEmpty(s *Schema) bool {
	return s.Type == "" && s.Ref == "" && s.Properties == nil && s.Items == nil &&
		s.AdditionalProperties == nil && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && len(s.AllOf) == 0 &&
		s.Not == nil && len(s.Enum) == 0 && s.Const == nil && s.Pattern == "" && s.Format == "" &&
		s.MaxLength == nil && s.MinLength == nil && s.MaxItems == nil && s.MinItems == nil &&
		s.Minimum == "" && s.Maximum == "" && s.ExclusiveMinimum == "" && s.ExclusiveMaximum == "" &&
		s.Description == "" && s.Title == "" && s.Default == nil && len(s.Required) == 0 &&
		len(s.Examples) == 0 && s.PatternProperties == nil && s.If == nil && s.Contains == nil
}

// JSON renders a schema as indented JSON with invopop's key order preserved.
func JSON(s *Schema) []byte {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// Compact renders a schema as compact JSON, the bytes a tools/list answer carries.
func Compact(s *Schema) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}
