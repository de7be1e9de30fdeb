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
// $defs), no $id, additionalProperties:false on every struct, and only fields tagged
// `jsonschema:"required"` are required: an output lists what may appear, and requires
// only what always does (status), so a pipeline refusal still conforms.
func reflector() *jsonschema.Reflector {
	return &jsonschema.Reflector{DoNotReference: true, Anonymous: true, RequiredFromJSONSchemaTags: true}
}

// For returns the schema of T. It panics on a schema that clients cannot consume
// (a non-object root or a bare `true` sub-schema), because that is a programming error
// that every test binary should surface at start-up.
func For[T any]() *Schema { return ForType(reflect.TypeFor[T]()) }

// ForType is For for a reflect.Type.
func ForType(t reflect.Type) *Schema {
	s := reflector().ReflectFromType(t)
	if s.Type != "object" {
		panic(fmt.Sprintf("schema: %v must reflect to an object schema, got %q", t, s.Type))
	}
	if path := bareTrue(s, "#"); path != "" {
		panic(fmt.Sprintf("schema: %v has a bare true sub-schema at %s; give the field a concrete type", t, path))
	}
	return s
}

// Output is the output schema of t with the tool's status vocabulary as the enum of
// its status property, so hosts and models see every word a result can carry.
func Output(t reflect.Type, statuses []string) *Schema {
	s := ForType(t)
	if st, ok := s.Properties.Get("status"); ok && len(statuses) > 0 {
		cp := *st
		cp.Enum = make([]any, len(statuses))
		for i, w := range slices.Clone(statuses) {
			cp.Enum[i] = w
		}
		s.Properties.Set("status", &cp)
	}
	return s
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
