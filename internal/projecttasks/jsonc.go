package projecttasks

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// parseJSONC parses a JSON document that may hold comments and trailing commas with
// github.com/tailscale/hujson, whose tree keeps each value's byte offsets (so every
// warning can name a line). strict refuses the extensions (package.json is read by
// JSON.parse). The error never quotes the document: a position and a fixed phrase.
func parseJSONC(data []byte, strict bool) (*hujson.Value, []byte, error) {
	data = bytes.TrimPrefix(data, bom)
	if !utf8.Valid(data) {
		return nil, data, errors.New("the file is not valid UTF-8")
	}
	if line, ok := depthOK(data); !ok {
		return nil, data, fmt.Errorf("values are nested more than %d deep at line %d", maxJSONDepth, line)
	}
	v, err := hujson.Parse(data)
	if err != nil {
		var line, col int
		if _, serr := fmt.Sscanf(err.Error(), "hujson: line %d, column %d:", &line, &col); serr == nil {
			return nil, data, fmt.Errorf("invalid JSON: syntax error at line %d, column %d", line, col)
		}
		return nil, data, errors.New("invalid JSON: syntax error")
	}
	if strict && !v.IsStandard() {
		return nil, data, errors.New("invalid JSON: the file holds comments or trailing commas")
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, data, errors.New("the top-level JSON value is not an object")
	}
	return &v, data, nil
}

// depthOK scans for nesting deeper than maxJSONDepth, skipping strings and comments,
// and reports the line where it is exceeded.
func depthOK(b []byte) (int, bool) {
	depth, line := 0, 1
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '\n':
			line++
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				switch b[i] {
				case '\\':
					i++
				case '\n':
					line++
				}
			}
		case '/':
			if i+1 < len(b) && b[i+1] == '/' {
				for i < len(b) && b[i] != '\n' {
					i++
				}
				i-- // let the newline be counted
			} else if i+1 < len(b) && b[i+1] == '*' {
				for i += 2; i < len(b) && (b[i] != '*' || i+1 >= len(b) || b[i+1] != '/'); i++ {
					if b[i] == '\n' {
						line++
					}
				}
				i++
			}
		case '{', '[':
			if depth++; depth > maxJSONDepth {
				return line, false
			}
		case '}', ']':
			depth--
		}
	}
	return 0, true
}

// object is the members of a JSON object value, or nil.
func object(v *hujson.Value) *hujson.Object {
	if v == nil {
		return nil
	}
	o, _ := v.Value.(*hujson.Object)
	return o
}

func array(v *hujson.Value) *hujson.Array {
	if v == nil {
		return nil
	}
	a, _ := v.Value.(*hujson.Array)
	return a
}

// member is the value of the last member named name (JSON.parse and VS Code's parser
// keep the last of duplicates), or nil.
func member(o *hujson.Object, name string) *hujson.Value {
	if o == nil {
		return nil
	}
	for i := len(o.Members) - 1; i >= 0; i-- {
		if n, ok := str(&o.Members[i].Name); ok && n == name {
			return &o.Members[i].Value
		}
	}
	return nil
}

// str is a JSON string's value.
func str(v *hujson.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	l, ok := v.Value.(hujson.Literal)
	if !ok || l.Kind() != '"' || len(l) < 2 {
		return "", false
	}
	if bytes.IndexByte(l, '\\') < 0 {
		// No escape: the bytes between the quotes are the value (the file is valid
		// UTF-8), without a JSON decoder per name looked up.
		return string(l[1 : len(l)-1]), true
	}
	return l.String(), true
}

// isNull reports a missing value or a JSON null.
func isNull(v *hujson.Value) bool {
	if v == nil {
		return true
	}
	l, ok := v.Value.(hujson.Literal)
	return ok && l.Kind() == 'n'
}

// boolean is a JSON true or false.
func boolean(v *hujson.Value) (bool, bool) {
	if v == nil {
		return false, false
	}
	l, ok := v.Value.(hujson.Literal)
	if !ok || (l.Kind() != 't' && l.Kind() != 'f') {
		return false, false
	}
	return l.Bool(), true
}
