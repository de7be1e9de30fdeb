package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits applied to every call unless the schema declares a smaller bound.
const (
	MaxFields      = 32
	MaxStringChars = 32768
	MaxArrayItems  = 1024
)

// ArgError is a validation failure; its message names the field and the rule.
type ArgError struct{ Msg string }

func (e *ArgError) Error() string { return e.Msg }

func argErr(format string, a ...any) error { return &ArgError{Msg: fmt.Sprintf(format, a...)} }

// Validate checks raw tool arguments against an object schema in the order the spec
// fixes (object → field count → unknown → missing required → each property in schema
// order, first failure wins) and returns the argument map with defaults materialised.
// Numbers stay json.Number so integer-ness is decided on the literal, not a float.
// Absent arguments (nil or empty raw) mean {}; a JSON null does not.
func Validate(s *Schema, raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, argErr("tool arguments must be a JSON object: %v", err)
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, argErr("tool arguments must be an object")
		}
		args = m
	}
	if len(args) > MaxFields {
		return nil, argErr("too many tool arguments: %d (at most %d)", len(args), MaxFields)
	}
	var unknown []string
	for k := range args {
		if s.Properties == nil {
			unknown = append(unknown, k)
			continue
		}
		if _, ok := s.Properties.Get(k); !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return nil, argErr("unknown tool argument(s): %s", strings.Join(unknown, ", "))
	}
	var missing []string
	for _, r := range s.Required {
		if _, ok := args[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return nil, argErr("missing required tool argument(s): %s", strings.Join(missing, ", "))
	}
	if s.Properties == nil {
		return args, nil
	}
	for p := s.Properties.Oldest(); p != nil; p = p.Next() {
		v, ok := args[p.Key]
		if !ok {
			if p.Value.Default != nil {
				args[p.Key] = deepCopy(p.Value.Default)
			}
			continue
		}
		if err := check(p.Key, p.Value, v); err != nil {
			return nil, err
		}
	}
	return args, nil
}

func check(name string, s *Schema, v any) error {
	switch s.Type {
	case "string":
		str, ok := v.(string)
		if !ok {
			return argErr("%s must be a string", name)
		}
		limit := uint64(MaxStringChars)
		if s.MaxLength != nil && *s.MaxLength < limit {
			limit = *s.MaxLength
		}
		if n := uint64(utf8.RuneCountInString(str)); n > limit { //nolint:gosec // G115: a count is never negative
			return argErr("%s must be at most %d characters", name, limit)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return argErr("%s must be a boolean", name)
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok || strings.ContainsAny(string(n), ".eE") {
			return argErr("%s must be an integer", name)
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil {
			return argErr("%s must be an integer", name)
		}
		if s.Minimum != "" {
			if lo, err := s.Minimum.Int64(); err == nil && i < lo {
				return argErr("%s must be >= %d", name, lo)
			}
		}
		if s.Maximum != "" {
			if hi, err := s.Maximum.Int64(); err == nil && i > hi {
				return argErr("%s must be <= %d", name, hi)
			}
		}
	case "number":
		if _, ok := v.(json.Number); !ok {
			return argErr("%s must be a number", name)
		}
	case "array":
		items, ok := v.([]any)
		if !ok {
			return argErr("%s must be an array", name)
		}
		limit := uint64(MaxArrayItems)
		if s.MaxItems != nil && *s.MaxItems < limit {
			limit = *s.MaxItems
		}
		if uint64(len(items)) > limit {
			return argErr("%s must have at most %d items", name, limit)
		}
		if s.Items != nil {
			for i, it := range items {
				if err := check(fmt.Sprintf("%s[%d]", name, i), s.Items, it); err != nil {
					return err
				}
			}
		}
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return argErr("%s must be an object", name)
		}
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		opts := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			opts[i] = fmt.Sprint(e)
		}
		return argErr("%s must be one of [%s]", name, strings.Join(opts, ", "))
	}
	return nil
}

// deepCopy copies a default so a handler can never mutate the schema's value.
func deepCopy(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return v
	}
	return out
}
