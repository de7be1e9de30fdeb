package policy

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Registry reads one registry key and the named subkeys of it (the Windows registry in
// registry_windows.go; an in-memory twin in tests). ok is false when the key does not
// exist.
type Registry interface {
	Read(k Key, subkeys []string) (KeyValues, bool, error)
}

// KeyValues are the values of a key and of those of its subkeys that exist.
type KeyValues struct {
	Values  []Value
	Subkeys map[string][]Value
}

// Value is one registry value: REG_SZ (String), REG_DWORD (DWord, in Number) or
// another type (Other), which no setting accepts.
type Value struct {
	Name   string
	Type   ValueType
	String string
	Number uint64
}

// ValueType is a registry value's type, as far as the policy cares.
type ValueType int

const (
	String ValueType = iota
	DWord
	Other
)

// subkeyNames are the subkeys the settings of kind List and Pairs are read from.
func subkeyNames() []string {
	var names []string
	for _, s := range Settings {
		if s.Kind == List || s.Kind == Pairs {
			names = append(names, s.Value)
		}
	}
	return names
}

// loadKey reads the policy in registry key k; ok is false when the key does not
// exist or holds no value, in itself or in a setting's subkey (docs/policy.md,
// "Group Policy").
func loadKey(src Sources, k Key) (State, bool) {
	kv, ok, err := src.Registry.Read(k, subkeyNames())
	if err != nil {
		return State{Source: k.String(), Err: fmt.Errorf("%s: %w", k, err)}, true
	}
	if !ok || (len(kv.Values) == 0 && !slices.ContainsFunc(subkeyNames(), func(n string) bool { return len(kv.Subkeys[n]) > 0 })) {
		return State{}, false
	}
	st := State{Source: k.String()}
	p, canon, err := fromValues(kv)
	st.SHA256 = src.hash(canon)
	if err != nil {
		st.Err = fmt.Errorf("%s %w", k, err)
		return st, true
	}
	st.Policy = p
	return st, true
}

// fromValues combines the document value and the per-setting values of one key: a
// setting given both ways is an error, as is any value no setting names. canon is
// what the hash is taken of: the document's bytes, then "\n" + name + "=" + data of
// each per-setting value in Settings order.
func fromValues(kv KeyValues) (p *Policy, canon []byte, err error) {
	p = &Policy{}
	byName := map[string]Value{}
	for _, v := range kv.Values {
		byName[strings.ToLower(v.Name)] = v // registry value names ignore case
	}
	var fromDoc []string
	if v, ok := byName[strings.ToLower(DocumentValue)]; ok {
		delete(byName, strings.ToLower(DocumentValue))
		if v.Type != String {
			return nil, nil, fmt.Errorf("value %s: must be a string (REG_SZ)", DocumentValue)
		}
		canon = []byte(v.String)
		if fromDoc, err = parseInto(canon, p); err != nil {
			return nil, canon, fmt.Errorf("value %s: %w", DocumentValue, err)
		}
	}
	for i := range Settings {
		s := &Settings[i]
		var data any
		var text string
		switch s.Kind {
		case List, Pairs:
			vals := kv.Subkeys[s.Value]
			if len(vals) == 0 {
				continue
			}
			data, text, err = subkeyValue(s, vals)
		default:
			v, ok := byName[strings.ToLower(s.Value)]
			if !ok {
				continue
			}
			delete(byName, strings.ToLower(s.Value))
			data, text, err = scalarValue(s, v)
		}
		canon = fmt.Appendf(canon, "\n%s=%s", s.Value, text)
		if err != nil {
			return nil, canon, err
		}
		if slices.Contains(fromDoc, s.Path) {
			return nil, canon, fmt.Errorf("value %s: %s is also set by the %s document; set it in one place only", s.Value, s.Path, DocumentValue)
		}
		s.set(p, data)
	}
	if len(byName) > 0 {
		names := make([]string, 0, len(byName))
		for _, v := range byName {
			names = append(names, v.Name)
		}
		slices.Sort(names)
		return nil, canon, fmt.Errorf("value %s: not a Windows Dev Agent policy value", names[0])
	}
	return p, canon, nil
}

func scalarValue(s *Setting, v Value) (any, string, error) {
	bad := func(want string) (any, string, error) {
		return nil, "", fmt.Errorf("value %s: %s must be %s", s.Value, s.Path, want)
	}
	switch s.Kind {
	case Bool:
		if v.Type != DWord || v.Number > 1 {
			return bad("a REG_DWORD 0 or 1")
		}
		return v.Number == 1, strconv.FormatUint(v.Number, 10), nil
	case Number:
		// Min and Max are small and not negative (the settings table), so the DWORD
		// compares and converts without overflow once it is within them.
		if v.Type != DWord || v.Number > math.MaxInt32 || int(v.Number) < s.Min || int(v.Number) > s.Max { //nolint:gosec // bounded by MaxInt32 first
			return bad(fmt.Sprintf("a REG_DWORD from %d to %d", s.Min, s.Max))
		}
		return int(v.Number), strconv.FormatUint(v.Number, 10), nil //nolint:gosec // within [Min, Max] above
	case Enum:
		if v.Type != String || !slices.Contains(s.Enum, v.String) {
			return bad("a REG_SZ, one of " + quoteAll(s.Enum))
		}
		return v.String, v.String, nil
	case Text:
		if v.Type != String {
			return bad("a REG_SZ")
		}
		if s.check != nil {
			if err := s.check(v.String); err != nil {
				return nil, "", fmt.Errorf("value %s: %s: %w", s.Value, s.Path, err)
			}
		}
		return v.String, v.String, nil
	}
	return bad("a supported value")
}

// subkeyValue is a List (the REG_SZ values of the subkey, in name order, numbers
// numerically) or a Pairs (value name → data).
func subkeyValue(s *Setting, vals []Value) (any, string, error) {
	vals = slices.Clone(vals)
	slices.SortFunc(vals, func(a, b Value) int {
		an, aerr := strconv.Atoi(a.Name)
		bn, berr := strconv.Atoi(b.Name)
		if aerr == nil && berr == nil {
			return cmp.Compare(an, bn)
		}
		return cmp.Compare(a.Name, b.Name)
	})
	where := func(v Value) string { return fmt.Sprintf(`value %s\%s`, s.Value, v.Name) }
	var text []string
	items := []string{}
	pairs := map[string]string{}
	for _, v := range vals {
		if v.Type != String {
			return nil, "", fmt.Errorf("%s: %s must hold REG_SZ values", where(v), s.Path)
		}
		if s.Enum != nil && !slices.Contains(s.Enum, v.String) {
			return nil, "", fmt.Errorf("%s: %s: %q is not one of %s", where(v), s.Path, v.String, quoteAll(s.Enum))
		}
		if s.Kind == Pairs {
			if err := pairKey(s, v.Name); err != nil {
				return nil, "", fmt.Errorf("%s: %w", where(v), err)
			}
		}
		if s.check != nil {
			if err := s.check(v.String); err != nil {
				return nil, "", fmt.Errorf("%s: %s: %w", where(v), s.Path, err)
			}
		}
		items = append(items, v.String)
		pairs[v.Name] = v.String
		text = append(text, v.Name+"\x1f"+v.String)
	}
	if s.Kind == Pairs {
		return pairs, strings.Join(text, "\x1e"), nil
	}
	return items, strings.Join(text, "\x1e"), nil
}

// MapRegistry is the portable twin of the Windows registry: keys by their String(),
// for tests on every OS.
type MapRegistry map[string]KeyValues

func (m MapRegistry) Read(k Key, subkeys []string) (KeyValues, bool, error) {
	kv, ok := m[k.String()]
	if !ok {
		return KeyValues{}, false, nil
	}
	out := KeyValues{Values: kv.Values, Subkeys: map[string][]Value{}}
	for _, n := range subkeys {
		if v, ok := kv.Subkeys[n]; ok {
			out.Subkeys[n] = v
		}
	}
	return out, true, nil
}
