package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	gjs "github.com/google/jsonschema-go/jsonschema"
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

// Validator checks a tool's arguments against its input schema. Build it once per
// tool with NewValidator; it is safe for concurrent use.
//
// The project's own rules come first, in a fixed order with messages that name the
// field and the rule: object → field count → unknown → null for a required field (a
// null for an optional one is dropped: absent) → missing required → each
// property in schema order (type, integer literal, bounds, length, pattern, items,
// nested objects, enum), first failure wins, and a call-wide bound on fields, string
// length and array size. Then github.com/google/jsonschema-go validates the defaulted
// arguments against the same schema, so every keyword the schema advertises is
// enforced even where the rules above have no message of their own.
type Validator struct {
	s        *Schema
	resolved func() (*gjs.Resolved, error)
	patterns sync.Map // pattern source -> *regexp.Regexp
}

// NewValidator prepares the validation of s. The library's resolution of the schema
// happens on first use, off the start-up path.
func NewValidator(s *Schema) *Validator {
	v := &Validator{s: s}
	v.resolved = sync.OnceValues(func() (*gjs.Resolved, error) {
		var g gjs.Schema
		if err := json.Unmarshal(Compact(s), &g); err != nil {
			return nil, err
		}
		return g.Resolve(nil)
	})
	return v
}

// Validate checks raw tool arguments and returns the argument map with defaults
// materialised. Numbers stay json.Number so integer-ness is decided on the literal, not
// a float. Absent arguments (nil or empty raw) mean {}; a JSON null does not.
func (v *Validator) Validate(raw json.RawMessage) (map[string]any, error) {
	args, err := decodeObject(raw)
	if err != nil {
		return nil, err
	}
	return v.ValidateMap(args)
}

// ValidateMap is Validate for arguments already decoded with UseNumber. args is
// modified in place (defaults) and returned.
func (v *Validator) ValidateMap(args map[string]any) (map[string]any, error) {
	if err := v.object("", v.s, args, true); err != nil {
		return nil, err
	}
	r, err := v.resolved()
	if err != nil {
		return nil, argErr("the tool's input schema cannot be used for validation: %v", err)
	}
	if err := r.Validate(libraryView(args)); err != nil {
		return nil, argErr("tool arguments do not match the input schema: %s", libraryMessage(err))
	}
	return args, nil
}

// Validate is a one-off NewValidator(s).Validate(raw).
func Validate(s *Schema, raw json.RawMessage) (map[string]any, error) {
	return NewValidator(s).Validate(raw)
}

func decodeObject(raw json.RawMessage) (map[string]any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, argErr("tool arguments must be a JSON object: %s", syntaxMessage(raw, err))
	}
	if dec.More() {
		return nil, argErr("tool arguments must be a single JSON object")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, argErr("tool arguments must be an object")
	}
	return m, nil
}

// syntaxMessage reports where the JSON broke without echoing any of it.
func syntaxMessage(raw []byte, err error) string {
	if se, ok := err.(*json.SyntaxError); ok {
		line, col := lineCol(raw, se.Offset)
		return fmt.Sprintf("invalid JSON at line %d, column %d", line, col)
	}
	if ute, ok := err.(*json.UnmarshalTypeError); ok {
		line, col := lineCol(raw, ute.Offset)
		return fmt.Sprintf("unexpected JSON value at line %d, column %d", line, col)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "invalid JSON: it ends before the object is complete"
	}
	return "invalid JSON"
}

func lineCol(b []byte, off int64) (int, int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	line, col := 1, 1
	for _, c := range b[:max(off-1, 0)] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// object checks one object value against s; top says whether it is the arguments
// themselves (whose messages say "tool argument").
func (v *Validator) object(path string, s *Schema, m map[string]any, top bool) error {
	what := "tool argument"
	if !top {
		what = "field"
	}
	if len(m) > MaxFields {
		if top {
			return argErr("too many tool arguments: %d (at most %d)", len(m), MaxFields)
		}
		return argErr("%s has too many fields: %d (at most %d)", path, len(m), MaxFields)
	}
	var unknown []string
	for k := range m {
		if s.Properties == nil {
			unknown = append(unknown, join(path, k))
			continue
		}
		if _, ok := s.Properties.Get(k); !ok {
			unknown = append(unknown, join(path, k))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return argErr("unknown %s(s): %s", what, strings.Join(unknown, ", "))
	}
	// null is absent for an optional argument (docs/architecture.md, "The call
	// pipeline", step 2): models send null for the parameters they do not use, so it is
	// dropped here, before any rule or default sees it. A required argument has no
	// absent form, so null for it stays an error that names it.
	for _, r := range s.Required {
		if v, ok := m[r]; ok && v == nil {
			return argErr("%s is required and must not be null", join(path, r))
		}
	}
	for k, val := range m {
		if val == nil {
			delete(m, k)
		}
	}
	var missing []string
	for _, r := range s.Required {
		if _, ok := m[r]; !ok {
			missing = append(missing, join(path, r))
		}
	}
	if len(missing) > 0 {
		return argErr("missing required %s(s): %s", what, strings.Join(missing, ", "))
	}
	if s.Properties == nil {
		return nil
	}
	for p := s.Properties.Oldest(); p != nil; p = p.Next() {
		val, ok := m[p.Key]
		if !ok {
			if p.Value.Default != nil {
				m[p.Key] = deepCopy(p.Value.Default)
			}
			continue
		}
		if err := v.check(join(path, p.Key), p.Value, val); err != nil {
			return err
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (v *Validator) check(name string, s *Schema, val any) error {
	switch s.Type {
	case "string":
		str, ok := val.(string)
		if !ok {
			return argErr("%s must be a string", name)
		}
		limit := uint64(MaxStringChars)
		if s.MaxLength != nil && *s.MaxLength < limit {
			limit = *s.MaxLength
		}
		n := uint64(utf8.RuneCountInString(str)) //nolint:gosec // G115: a count is never negative
		if n > limit {
			return argErr("%s must be at most %d characters", name, limit)
		}
		if s.MinLength != nil && n < *s.MinLength {
			if *s.MinLength == 1 {
				return argErr("%s must not be empty", name)
			}
			return argErr("%s must be at least %d characters", name, *s.MinLength)
		}
		if s.Pattern != "" {
			re, err := v.pattern(s.Pattern)
			if err != nil {
				return argErr("%s: the schema's pattern cannot be used: %v", name, err)
			}
			if !re.MatchString(str) {
				if s.Pattern == `\S` {
					return argErr("%s must not be blank", name)
				}
				return argErr("%s must match the pattern %s", name, s.Pattern)
			}
		}
	case "boolean":
		if _, ok := val.(bool); !ok {
			return argErr("%s must be a boolean", name)
		}
	case "integer":
		n, ok := val.(json.Number)
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
		n, ok := val.(json.Number)
		if !ok {
			return argErr("%s must be a number", name)
		}
		f, err := n.Float64()
		if err != nil {
			return argErr("%s must be a finite number", name)
		}
		if s.Minimum != "" {
			if lo, err := s.Minimum.Float64(); err == nil && f < lo {
				return argErr("%s must be >= %s", name, s.Minimum)
			}
		}
		if s.Maximum != "" {
			if hi, err := s.Maximum.Float64(); err == nil && f > hi {
				return argErr("%s must be <= %s", name, s.Maximum)
			}
		}
	case "array":
		items, ok := val.([]any)
		if !ok {
			return argErr("%s must be an array", name)
		}
		limit := uint64(MaxArrayItems)
		if s.MaxItems != nil && *s.MaxItems < limit {
			limit = *s.MaxItems
		}
		if uint64(len(items)) > limit {
			return argErr("%s must have at most %s", name, itemCount(limit))
		}
		if s.MinItems != nil && uint64(len(items)) < *s.MinItems {
			return argErr("%s must have at least %s", name, itemCount(*s.MinItems))
		}
		if s.Items != nil {
			for i, it := range items {
				if err := v.check(fmt.Sprintf("%s[%d]", name, i), s.Items, it); err != nil {
					return err
				}
			}
		}
	case "object":
		m, ok := val.(map[string]any)
		if !ok {
			return argErr("%s must be an object", name)
		}
		if s.Properties != nil || len(s.Required) > 0 || s.AdditionalProperties != nil {
			if err := v.object(name, s, m, false); err != nil {
				return err
			}
		}
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(val) }) {
		opts := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			opts[i] = fmt.Sprint(e)
		}
		return argErr("%s must be one of [%s]", name, strings.Join(opts, ", "))
	}
	return nil
}

func (v *Validator) pattern(src string) (*regexp.Regexp, error) {
	if re, ok := v.patterns.Load(src); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, err
	}
	v.patterns.Store(src, re)
	return re, nil
}

// libraryView converts json.Number leaves (which the library would take for strings)
// into int64 or float64.
func libraryView(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil && !strings.ContainsAny(string(t), ".eE") {
			return i
		}
		f, _ := t.Float64()
		return f
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = libraryView(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = libraryView(x)
		}
		return out
	}
	return v
}

// libraryMessage keeps the innermost part of the library's nested error, which names
// the failing location and keyword, without the schema dump around it.
func libraryMessage(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "validating "); i >= 0 {
		msg = msg[i+len("validating "):]
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return msg
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

// itemCount is "1 item" or "n items".
func itemCount(n uint64) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}
