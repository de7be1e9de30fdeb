// Package schema owns the one JSON Schema configuration used for every tool input and
// output, and the strict argument validator that every tools/call passes before a
// handler runs.
//
// It must never import the runtime or any tool: schemas are a pure function of Go types.
package schema

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/invopop/jsonschema"
)

// Schema is the schema representation used across the project.
type Schema = jsonschema.Schema

// reflector is the single invopop configuration: everything inline (no $ref root, no
// $defs), no $id, additionalProperties:false on every struct, and only fields tagged
// `jsonschema:"required"` are required: an output lists what may appear, and requires
// only what always does (status), so a gate-made result still conforms.
func reflector() *jsonschema.Reflector {
	return &jsonschema.Reflector{DoNotReference: true, Anonymous: true, RequiredFromJSONSchemaTags: true}
}

// For returns the schema of T. It panics on a schema that clients cannot consume
// (a non-object root or a bare `true` sub-schema), because that is a programming error
// that every test binary should surface at start-up.
func For[T any]() *Schema {
	var zero T
	return ForType(reflect.TypeOf(zero))
}

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

func isEmpty(s *Schema) bool {
	b, err := json.Marshal(s)
	return err == nil && (string(b) == "true" || string(b) == "{}")
}

// JSON renders a schema as indented JSON with invopop's key order preserved.
func JSON(s *Schema) []byte {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
