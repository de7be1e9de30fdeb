package tomlmini

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a parse failure at a 1-based line. Msg is one of a fixed set of
// descriptions and never contains input text.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// maxDepth bounds nested arrays and inline tables so hostile input cannot exhaust the
// stack.
const maxDepth = 64

// Parse parses a TOML document. A leading UTF-8 byte order mark is skipped.
func Parse(data []byte) (map[string]any, error) {
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	if !utf8.Valid(data) {
		return nil, &Error{Line: 1, Msg: "document is not valid UTF-8"}
	}
	p := &parser{s: string(data), line: 1, root: map[string]any{}, kinds: map[string]kind{}}
	p.cur = p.root
	if err := p.document(); err != nil {
		return nil, err
	}
	return p.root, nil
}

// kind records how a table path came to exist, for the redefinition rules.
type kind int

const (
	implicit   kind = iota // created on the way to a deeper header or dotted key
	explicit               // named by a [header]
	arrayTable             // named by [[header]]
	value                  // assigned by key = value (including inline tables)
)

type parser struct {
	s       string
	i       int
	line    int
	root    map[string]any
	cur     map[string]any
	curPath string
	kinds   map[string]kind
}

func (p *parser) fail(msg string) error { return &Error{Line: p.line, Msg: msg} }

func (p *parser) eof() bool { return p.i >= len(p.s) }

func (p *parser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func (p *parser) has(prefix string) bool { return strings.HasPrefix(p.s[p.i:], prefix) }

func (p *parser) skipSpace() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// skipComment consumes a comment up to (not including) the line end.
func (p *parser) skipComment() error {
	if p.peek() != '#' {
		return nil
	}
	for !p.eof() && p.s[p.i] != '\n' {
		c := p.s[p.i]
		if c < 0x20 && c != '\t' && c != '\r' || c == 0x7f {
			return p.fail("control character in comment")
		}
		p.i++
	}
	return nil
}

// newline consumes one line ending (LF or CRLF) if present.
func (p *parser) newline() bool {
	if p.has("\r\n") {
		p.i += 2
	} else if p.peek() == '\n' {
		p.i++
	} else {
		return false
	}
	p.line++
	return true
}

// skipBlank consumes whitespace, comments and line endings (inside arrays).
func (p *parser) skipBlank() error {
	for {
		p.skipSpace()
		if err := p.skipComment(); err != nil {
			return err
		}
		if !p.newline() {
			return nil
		}
	}
}

// endOfLine requires only whitespace and a comment before the line end or EOF.
func (p *parser) endOfLine() error {
	p.skipSpace()
	if err := p.skipComment(); err != nil {
		return err
	}
	if p.eof() || p.newline() {
		return nil
	}
	return p.fail("unexpected text after a value or header")
}

func (p *parser) document() error {
	for {
		if err := p.skipBlank(); err != nil {
			return err
		}
		if p.eof() {
			return nil
		}
		var err error
		if p.peek() == '[' {
			err = p.header()
		} else {
			err = p.keyValue(p.cur, p.curPath, 0)
		}
		if err != nil {
			return err
		}
		if err := p.endOfLine(); err != nil {
			return err
		}
	}
}

// pathOf extends a table path by one key; quoting keeps "a.b" and a.b apart.
func pathOf(base, key string) string { return base + "/" + strconv.Quote(key) }

func (p *parser) header() error {
	array := p.has("[[")
	if array {
		p.i += 2
	} else {
		p.i++
	}
	p.skipSpace()
	keys, err := p.key()
	if err != nil {
		return err
	}
	p.skipSpace()
	if array {
		if !p.has("]]") {
			return p.fail("expected ]] to close an array-of-tables header")
		}
		p.i += 2
	} else {
		if p.peek() != ']' {
			return p.fail("expected ] to close a table header")
		}
		p.i++
	}
	t, path, err := p.descend(p.root, "", keys[:len(keys)-1])
	if err != nil {
		return err
	}
	last := keys[len(keys)-1]
	path = pathOf(path, last)
	existing, ok := t[last]
	if array {
		switch {
		case !ok:
			t[last] = []any{}
			p.kinds[path] = arrayTable
		case p.kinds[path] != arrayTable:
			return p.fail("array of tables conflicts with an existing key")
		}
		arr := t[last].([]any)
		m := map[string]any{}
		t[last] = append(arr, m)
		p.cur, p.curPath = m, fmt.Sprintf("%s[%d]", path, len(arr))
		return nil
	}
	if !ok {
		m := map[string]any{}
		t[last] = m
		p.kinds[path] = explicit
		p.cur, p.curPath = m, path
		return nil
	}
	m, isMap := existing.(map[string]any)
	if !isMap || p.kinds[path] != implicit {
		return p.fail("table defined more than once")
	}
	p.kinds[path] = explicit
	p.cur, p.curPath = m, path
	return nil
}

// descend walks keys from t, creating implicit tables and entering the last table of
// an array of tables, as both header names and dotted keys do.
func (p *parser) descend(t map[string]any, path string, keys []string) (map[string]any, string, error) {
	for _, k := range keys {
		kp := pathOf(path, k)
		switch v := t[k].(type) {
		case nil:
			if _, exists := t[k]; exists {
				return nil, "", p.fail("key conflicts with an existing value")
			}
			m := map[string]any{}
			t[k] = m
			p.kinds[kp] = implicit
			t, path = m, kp
		case map[string]any:
			if p.kinds[kp] == value {
				return nil, "", p.fail("key extends an inline table")
			}
			t, path = v, kp
		case []any:
			if p.kinds[kp] != arrayTable || len(v) == 0 {
				return nil, "", p.fail("key conflicts with an array value")
			}
			last, _ := v[len(v)-1].(map[string]any)
			t, path = last, fmt.Sprintf("%s[%d]", kp, len(v)-1)
		default:
			return nil, "", p.fail("key conflicts with an existing value")
		}
	}
	return t, path, nil
}

// keyValue parses `key = value` into t (whose path is path).
func (p *parser) keyValue(t map[string]any, path string, depth int) error {
	keys, err := p.key()
	if err != nil {
		return err
	}
	p.skipSpace()
	if p.peek() != '=' {
		return p.fail("expected = after a key")
	}
	p.i++
	p.skipSpace()
	t, path, err = p.descend(t, path, keys[:len(keys)-1])
	if err != nil {
		return err
	}
	last := keys[len(keys)-1]
	if _, dup := t[last]; dup {
		return p.fail("duplicate key")
	}
	vpath := pathOf(path, last)
	v, err := p.value(vpath, depth)
	if err != nil {
		return err
	}
	t[last] = v
	p.kinds[vpath] = value
	return nil
}

// key parses a possibly dotted key into its parts.
func (p *parser) key() ([]string, error) {
	var keys []string
	for {
		var k string
		var err error
		switch c := p.peek(); {
		case c == '"':
			if p.has(`"""`) {
				return nil, p.fail("multi-line string used as a key")
			}
			k, err = p.basicString()
		case c == '\'':
			if p.has("'''") {
				return nil, p.fail("multi-line string used as a key")
			}
			k, err = p.literalString()
		case isBare(c):
			start := p.i
			for !p.eof() && isBare(p.s[p.i]) {
				p.i++
			}
			k = p.s[start:p.i]
		default:
			return nil, p.fail("expected a key")
		}
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
		p.skipSpace()
		if p.peek() != '.' {
			return keys, nil
		}
		p.i++
		p.skipSpace()
	}
}

func isBare(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
