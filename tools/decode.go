package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// decodeArgs stores validated arguments into the fields of *dst without a JSON round
// trip: the pipeline decodes a call's arguments once, validates and binds the map, and
// this assigns the result. It follows encoding/json's rules for the shapes tool inputs
// use (json tags, promoted fields of embedded structs, nested structs, slices, maps,
// pointers, interfaces); a differential fuzz test holds it to encoding/json. Unknown
// keys are an error, as with DisallowUnknownFields.
func decodeArgs(args Args, dst any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("tools: decode target must be a non-nil pointer")
	}
	return assign(v.Elem(), map[string]any(args), "")
}

// ArgError is a value that does not fit the tool's input type. The validator refuses
// such values first, so reaching it means the schema and the type disagree.
type ArgError struct{ Msg string }

func (e *ArgError) Error() string { return e.Msg }

func assign(dst reflect.Value, v any, path string) error {
	if v == nil {
		switch dst.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
			dst.SetZero()
		}
		return nil // encoding/json leaves other kinds unchanged for null
	}
	switch dst.Kind() {
	case reflect.Pointer:
		if dst.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
		}
		return assign(dst.Elem(), v, path)
	case reflect.Interface:
		if dst.NumMethod() != 0 {
			return mismatch(path, v, dst.Type())
		}
		dst.Set(reflect.ValueOf(plain(v)))
		return nil
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return mismatch(path, v, dst.Type())
		}
		dst.SetString(s)
		return nil
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return mismatch(path, v, dst.Type())
		}
		dst.SetBool(b)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := number(v, path, dst.Type())
		if err != nil {
			return err
		}
		i, perr := strconv.ParseInt(n, 10, 64)
		if perr != nil || dst.OverflowInt(i) {
			return mismatch(path, v, dst.Type())
		}
		dst.SetInt(i)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := number(v, path, dst.Type())
		if err != nil {
			return err
		}
		u, perr := strconv.ParseUint(n, 10, 64)
		if perr != nil || dst.OverflowUint(u) {
			return mismatch(path, v, dst.Type())
		}
		dst.SetUint(u)
		return nil
	case reflect.Float32, reflect.Float64:
		n, err := number(v, path, dst.Type())
		if err != nil {
			return err
		}
		f, perr := strconv.ParseFloat(n, dst.Type().Bits())
		if perr != nil || dst.OverflowFloat(f) {
			return mismatch(path, v, dst.Type())
		}
		dst.SetFloat(f)
		return nil
	case reflect.Slice:
		items, ok := v.([]any)
		if !ok {
			return mismatch(path, v, dst.Type())
		}
		s := reflect.MakeSlice(dst.Type(), len(items), len(items))
		for i, it := range items {
			if err := assign(s.Index(i), it, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		dst.Set(s)
		return nil
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok || dst.Type().Key().Kind() != reflect.String {
			return mismatch(path, v, dst.Type())
		}
		if dst.IsNil() {
			dst.Set(reflect.MakeMapWithSize(dst.Type(), len(m)))
		}
		for k, item := range m {
			ev := reflect.New(dst.Type().Elem()).Elem()
			if err := assign(ev, item, join(path, k)); err != nil {
				return err
			}
			dst.SetMapIndex(reflect.ValueOf(k).Convert(dst.Type().Key()), ev)
		}
		return nil
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return mismatch(path, v, dst.Type())
		}
		fields := fieldsOf(dst.Type())
		for k, item := range m {
			f, ok := fields.byName[k]
			if !ok {
				f, ok = fields.fold(k)
			}
			if !ok {
				return &ArgError{Msg: fmt.Sprintf("unknown tool argument(s): %s", join(path, k))}
			}
			fv, err := fieldValue(dst, f.index)
			if err != nil {
				return err
			}
			if err := assign(fv, item, join(path, k)); err != nil {
				return err
			}
		}
		return nil
	}
	return mismatch(path, v, dst.Type())
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func number(v any, path string, t reflect.Type) (string, error) {
	switch n := v.(type) {
	case json.Number:
		return string(n), nil
	case float64:
		return strconv.FormatFloat(n, 'g', -1, 64), nil
	}
	return "", mismatch(path, v, t)
}

func mismatch(path string, v any, t reflect.Type) error {
	return &ArgError{Msg: fmt.Sprintf("%s: a JSON %s cannot be stored in a %s", path, jsonKind(v), t)}
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// plain turns json.Number leaves into float64, as encoding/json stores numbers in an
// interface{} without UseNumber.
func plain(v any) any {
	switch t := v.(type) {
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return t.String()
		}
		return f
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = plain(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = plain(x)
		}
		return out
	}
	return v
}

// fieldValue walks an index path, allocating embedded struct pointers on the way.
func fieldValue(v reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, &ArgError{Msg: "unexported embedded pointer"}
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

type field struct {
	name  string
	index []int
}

type fieldSet struct {
	byName map[string]field
	list   []field
}

// fold matches a key case-insensitively, as encoding/json does when no exact name
// matches.
func (s fieldSet) fold(k string) (field, bool) {
	for _, f := range s.list {
		if strings.EqualFold(f.name, k) {
			return f, true
		}
	}
	return field{}, false
}

var fieldCache sync.Map // reflect.Type -> fieldSet

// fieldsOf lists the JSON-visible fields of t with encoding/json's promotion rules:
// the shallowest name wins, a tagged field wins over an untagged one at the same
// depth, and ties are dropped.
func fieldsOf(t reflect.Type) fieldSet {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(fieldSet)
	}
	type cand struct {
		field
		depth  int
		tagged bool
	}
	byName := map[string][]cand{}
	var walk func(t reflect.Type, index []int, depth int, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, depth int, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				walk(ft, idx, depth+1, seen)
				continue
			}
			if !sf.IsExported() {
				continue
			}
			tagged := name != ""
			if name == "" {
				name = sf.Name
			}
			byName[name] = append(byName[name], cand{field{name, idx}, depth, tagged})
		}
	}
	walk(t, nil, 0, map[reflect.Type]bool{})
	fs := fieldSet{byName: map[string]field{}}
	for name, cs := range byName {
		best, ok := dominant(cs, func(c cand) (int, bool) { return c.depth, c.tagged })
		if ok {
			f := cs[best].field
			fs.byName[name] = f
			fs.list = append(fs.list, f)
		}
	}
	fieldCache.Store(t, fs)
	return fs
}

func dominant[C any](cs []C, key func(C) (int, bool)) (int, bool) {
	best, bestDepth, tie := -1, 1<<30, false
	for i, c := range cs {
		d, tagged := key(c)
		switch {
		case d < bestDepth:
			best, bestDepth, tie = i, d, false
		case d == bestDepth:
			_, bt := key(cs[best])
			switch {
			case tagged && !bt:
				best, tie = i, false
			case tagged == bt:
				tie = true
			}
		}
	}
	return best, best >= 0 && !tie
}

// fieldByJSONName reports whether t has a JSON field of that name.
func fieldByJSONName(t reflect.Type, name string) (field, bool) {
	f, ok := fieldsOf(t).byName[name]
	return f, ok
}
