package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxBytes bounds a policy document; a larger one is an error (fail closed).
const MaxBytes = 1 << 20

// SyntaxError is a policy document that does not parse: where (1-based line and
// column, counted in characters) and why.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Parse reads one policy document (docs/policy.md, "Schema"): a JSON object whose keys
// are exactly those of Settings. Unknown and repeated keys, wrong types, values outside
// a setting's enum and trailing data are errors, each a *SyntaxError.
func Parse(doc []byte) (*Policy, error) {
	p := &Policy{}
	if _, err := parseInto(doc, p); err != nil {
		return nil, err
	}
	return p, nil
}

// parseInto parses doc into p and returns the paths it set.
func parseInto(doc []byte, p *Policy) ([]string, error) {
	if len(doc) > MaxBytes {
		return nil, &SyntaxError{Line: 1, Column: 1, Msg: fmt.Sprintf("the document is larger than %d bytes", MaxBytes)}
	}
	if !utf8.Valid(doc) {
		return nil, errAt(doc, invalidUTF8(doc), "the document is not UTF-8")
	}
	ps := &parser{doc: doc, dec: json.NewDecoder(bytes.NewReader(doc)), p: p}
	ps.dec.UseNumber()
	if err := ps.object(""); err != nil {
		return nil, err
	}
	if at := len(bytes.TrimLeft(doc[ps.dec.InputOffset():], " \t\r\n")); at > 0 {
		at := int64(len(doc) - at)
		return nil, ps.errAt(at, "unexpected data after the policy object")
	}
	return ps.set, nil
}

type parser struct {
	doc []byte
	dec *json.Decoder
	p   *Policy
	set []string
}

// start is the offset of the next token: the decoder's offset past whitespace and
// the separators it has not consumed yet.
func (ps *parser) start() int64 {
	off := ps.dec.InputOffset()
	for off < int64(len(ps.doc)) && strings.IndexByte(" \t\r\n:,", ps.doc[off]) >= 0 {
		off++
	}
	return off
}

func (ps *parser) token() (json.Token, int64, error) {
	at := ps.start()
	t, err := ps.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := se.Offset - 1 // the decoder may stop before whitespace ahead of the culprit
			for off >= 0 && off < int64(len(ps.doc)) && strings.IndexByte(" \t\r\n", ps.doc[off]) >= 0 {
				off++
			}
			return nil, at, ps.errAt(off, "%s", strings.TrimPrefix(se.Error(), "json: "))
		}
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, at, ps.errAt(int64(len(ps.doc)), "unexpected end of the document")
		}
		return nil, at, ps.errAt(at, "%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return t, at, nil
}

func (ps *parser) errAt(off int64, format string, a ...any) error {
	return errAt(ps.doc, off, fmt.Sprintf(format, a...))
}

func where(prefix string) string {
	if prefix == "" {
		return "the policy"
	}
	return prefix
}

// object parses the object at prefix, its opening brace not yet read.
func (ps *parser) object(prefix string) error {
	t, at, err := ps.token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return ps.errAt(at, "%s must be an object", where(prefix))
	}
	seen := map[string]bool{}
	for ps.dec.More() {
		t, at, err := ps.token()
		if err != nil {
			return err
		}
		key := t.(string) // an object's tokens alternate key, value
		path := key
		if prefix != "" {
			path = prefix + "." + key
		}
		if seen[key] {
			return ps.errAt(at, "key %q appears twice", path)
		}
		seen[key] = true
		s, group := lookup(path)
		switch {
		case s != nil:
			v, err := ps.value(s)
			if err != nil {
				return err
			}
			s.set(ps.p, v)
			ps.set = append(ps.set, s.Path)
		case group:
			if err := ps.object(path); err != nil {
				return err
			}
		default:
			return ps.errAt(at, "unknown key %q (known keys of %s: %s)", path, where(prefix), strings.Join(keysUnder(prefix), ", "))
		}
	}
	_, _, err = ps.token() // the closing brace
	return err
}

// value parses the value of setting s.
func (ps *parser) value(s *Setting) (any, error) {
	t, at, err := ps.token()
	if err != nil {
		return nil, err
	}
	bad := func(want string) (any, error) { return nil, ps.errAt(at, "%s must be %s", s.Path, want) }
	switch s.Kind {
	case Bool:
		b, ok := t.(bool)
		if !ok {
			return bad("true or false")
		}
		return b, nil
	case Enum:
		str, ok := t.(string)
		if !ok || !slices.Contains(s.Enum, str) {
			return bad("one of " + quoteAll(s.Enum))
		}
		return str, nil
	case Text:
		str, ok := t.(string)
		if !ok {
			return bad("a string")
		}
		return str, ps.check(s, str, at)
	case Number:
		n, ok := t.(json.Number)
		i, err := n.Int64()
		if !ok || err != nil || i < int64(s.Min) || i > int64(s.Max) || i > math.MaxInt32 {
			return bad(fmt.Sprintf("a whole number from %d to %d", s.Min, s.Max))
		}
		return int(i), nil
	case List:
		if d, ok := t.(json.Delim); !ok || d != '[' {
			return bad("an array of strings")
		}
		items := []string{}
		for ps.dec.More() {
			t, at, err := ps.token()
			if err != nil {
				return nil, err
			}
			str, ok := t.(string)
			if !ok {
				return nil, ps.errAt(at, "%s must hold only strings", s.Path)
			}
			if s.Enum != nil && !slices.Contains(s.Enum, str) {
				return nil, ps.errAt(at, "%s: %q is not one of %s", s.Path, str, quoteAll(s.Enum))
			}
			if err := ps.check(s, str, at); err != nil {
				return nil, err
			}
			items = append(items, str)
		}
		_, _, err := ps.token()
		return items, err
	case Pairs:
		if d, ok := t.(json.Delim); !ok || d != '{' {
			return bad("an object of strings")
		}
		m := map[string]string{}
		for ps.dec.More() {
			kt, kat, err := ps.token()
			if err != nil {
				return nil, err
			}
			k := kt.(string)
			if _, dup := m[k]; dup {
				return nil, ps.errAt(kat, "%s: key %q appears twice", s.Path, k)
			}
			if err := pairKey(s, k); err != nil {
				return nil, ps.errAt(kat, "%v", err)
			}
			vt, vat, err := ps.token()
			if err != nil {
				return nil, err
			}
			v, ok := vt.(string)
			if !ok {
				return nil, ps.errAt(vat, "%s must hold only strings", s.Path)
			}
			if err := ps.check(s, v, vat); err != nil {
				return nil, err
			}
			m[k] = v
		}
		_, _, err := ps.token()
		return m, err
	}
	return nil, ps.errAt(at, "%s: unsupported setting kind", s.Path)
}

func pairKey(s *Setting, k string) error {
	if !isToken(k) {
		return fmt.Errorf("%s: %q is not a header name", s.Path, k)
	}
	return nil
}

func (ps *parser) check(s *Setting, v string, at int64) error {
	if s.check == nil {
		return nil
	}
	if err := s.check(v); err != nil {
		return ps.errAt(at, "%s: %v", s.Path, err)
	}
	return nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// errAt is a *SyntaxError at byte offset off of doc.
func errAt(doc []byte, off int64, msg string) error {
	off = max(0, min(off, int64(len(doc))))
	line, col := 1, 1
	for _, r := range string(doc[:off]) {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &SyntaxError{Line: line, Column: col, Msg: msg}
}

func invalidUTF8(doc []byte) int64 {
	for i := 0; i < len(doc); {
		r, n := utf8.DecodeRune(doc[i:])
		if r == utf8.RuneError && n <= 1 {
			return int64(i)
		}
		i += n
	}
	return 0
}
