package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
)

// share moves every sub-schema that occurs more than once in s into s's $defs, each
// occurrence replaced by a $ref, as long as that makes the rendering shorter: a tool
// that reports twenty tools of one shape describes the shape once (issue 24, "What the
// model pays"). Only identical sub-schemas are shared, so what the schema admits does
// not change. A shared schema is named after the Go type that produced it when one did
// (names lists the reachable named types by their rendering), else after the property
// where it first occurs. Input schemas are never shared: hosts send them to models,
// some of which read no $ref.
func share(s *Schema, names map[string]string) {
	defs := jsonschema.Definitions{}
	s.Definitions = defs // walked like the rest: a shared part may contain another
	defer func() {
		if len(defs) == 0 {
			s.Definitions = nil
		}
	}()
	taken := map[string]bool{}
	for {
		best, bestGain := "", 0
		var bestKey string
		counts := map[string]int{}
		first := map[string]string{}
		// rendered keeps each sub-schema's rendering for the replacement below: a
		// rendering marshals the whole subtree, and replacing a part changes no other
		// part's equality with it (no schema contains itself).
		rendered := map[*Schema]string{}
		walk(s, "", func(sub *Schema, key string) {
			c := canonical(sub)
			rendered[sub] = c
			counts[c]++
			if _, ok := first[c]; !ok {
				first[c] = key
			}
		})
		for c, n := range counts {
			if n < 2 {
				continue
			}
			name := defName(c, names, first[c], taken)
			ref := len(`{"$ref":"#/$defs/`) + len(name) + len(`"}`)
			// n copies become n refs and one definition with its key.
			gain := (n-1)*len(c) - n*ref - len(name) - 4
			if gain > bestGain || gain == bestGain && gain > 0 && c < best {
				best, bestGain, bestKey = c, gain, name
			}
		}
		if bestGain <= 0 {
			break
		}
		var def *Schema
		walk(s, "", func(sub *Schema, _ string) {
			if rendered[sub] == best {
				if def == nil {
					cp := *sub
					def = &cp
				}
				*sub = Schema{Ref: "#/$defs/" + bestKey}
			}
		})
		defs[bestKey] = def
		taken[bestKey] = true
	}
}

// walk calls f on every sub-schema of s below the root (and below the $defs already
// made), with the property name it sits under ("" for items and branches).
func walk(s *Schema, key string, f func(sub *Schema, key string)) {
	visit := func(sub *Schema, k string) {
		if sub == nil || sub == jsonschema.TrueSchema || sub == jsonschema.FalseSchema {
			return
		}
		walk(sub, k, f)
		f(sub, k)
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			visit(p.Value, p.Key)
		}
	}
	visit(s.Items, key)
	for _, sub := range s.AnyOf {
		visit(sub, key)
	}
	for _, sub := range s.OneOf {
		visit(sub, key)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Definitions)) {
		walk(s.Definitions[name], key, f)
	}
}

// canonical is the rendering of s, which is deterministic (properties keep their
// order): two sub-schemas with the same rendering admit the same values.
func canonical(s *Schema) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// defName is the $defs key of the shared rendering c: its Go type's name, else a name
// that says its shape (strings, boolean_or_null), else the property it first sits
// under, made unique.
func defName(c string, names map[string]string, key string, taken map[string]bool) string {
	base := names[c]
	if base == "" {
		base = shapeName(c)
	}
	if base == "" {
		base = key
	}
	base = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return -1
	}, base)
	if base == "" {
		base = "shared"
	}
	name := base
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}

// shapeName names the shapes that repeat without a Go type of their own: an enum of
// strings by its words, a list of a plain type (strings), a plain type or null (either spelling).
func shapeName(c string) string {
	var list struct {
		Type []string `json:"type"`
	}
	var m map[string]any
	if json.Unmarshal([]byte(c), &m) == nil && len(m) == 1 && json.Unmarshal([]byte(c), &list) == nil &&
		len(list.Type) == 2 && list.Type[1] == "null" {
		return list.Type[0] + "_or_null"
	}
	var s Schema
	if json.Unmarshal([]byte(c), &s) != nil {
		return ""
	}
	plain := func(s *Schema) string {
		if s == nil || s.Type == "" || s.Type == "object" || s.Type == "array" {
			return ""
		}
		cp := *s
		cp.Type = ""
		if !isEmpty(&cp) {
			return ""
		}
		return s.Type
	}
	switch {
	case (s.Type == "string" || s.Type == "") && len(s.Enum) > 0 && allStrings(s.Enum):
		cp := s
		cp.Type, cp.Enum = "", nil
		if isEmpty(&cp) {
			words := make([]string, len(s.Enum))
			for i, w := range s.Enum {
				words[i] = fmt.Sprint(w)
			}
			return strings.Join(words, "_")
		}
	case s.Type == "array" && plain(s.Items) != "":
		cp := s
		cp.Type, cp.Items = "", nil
		if isEmpty(&cp) {
			return plain(s.Items) + "s"
		}
	case len(s.OneOf) == 2 && plain(s.OneOf[0]) != "" && s.OneOf[1].Type == "null",
		len(s.AnyOf) == 2 && plain(s.AnyOf[0]) != "" && s.AnyOf[1].Type == "null":
		cp := s
		cp.OneOf, cp.AnyOf = nil, nil
		if isEmpty(&cp) {
			return plain(append(s.OneOf, s.AnyOf...)[0]) + "_or_null"
		}
	}
	return ""
}

// typeNames maps the rendering of every named struct type reachable from t to its
// name, so a shared sub-schema can be named after the type that produced it.
func typeNames(t reflect.Type) map[string]string {
	out := map[string]string{}
	seen := map[reflect.Type]bool{}
	var visit func(reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		if name := t.Name(); name != "" && !strings.ContainsAny(name, "[]") {
			s := reflector().ReflectFromType(t)
			s.Version = ""
			normalizeAll(s)
			if c := canonical(s); out[c] == "" {
				out[c] = name
			}
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				visit(f.Type)
			}
		}
	}
	visit(t)
	return out
}

// nullable rewrites each "X or null" of s, which the reflector spells
// {"oneOf":[X,{"type":"null"}]} (and a hand-made schema may spell with anyOf), as X with the type list [X's type, "null"]: the same
// values in less than half the bytes. Only a plain X is rewritten: one with an enum or a
// const keeps the oneOf (null is not among its values), and so do a $ref, an object
// and an array, which share may describe once for both uses.
func nullable(s *Schema) {
	walk(s, "", func(sub *Schema, _ string) {
		branches := sub.OneOf
		if len(branches) == 0 {
			branches = sub.AnyOf
		}
		if len(branches) != 2 || branches[1] == nil || branches[1].Type != "null" {
			return
		}
		x := branches[0]
		if x == nil || x.Type == "" || x.Type == "object" || x.Type == "array" || x.Ref != "" || len(x.Enum) > 0 || x.Const != nil || len(x.Extras) > 0 {
			return
		}
		holder := *sub
		holder.OneOf, holder.AnyOf = nil, nil
		if !isEmpty(&holder) || len(holder.Extras) > 0 {
			return
		}
		cp := *x
		cp.Extras = map[string]any{"type": []string{x.Type, "null"}}
		cp.Type = ""
		*sub = cp
	})
}
