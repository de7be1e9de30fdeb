package tomlmini

import (
	"math"
	"strconv"
	"strings"
)

func (p *parser) value(path string, depth int) (any, error) {
	if depth >= maxDepth {
		return nil, p.fail("values nested too deeply")
	}
	switch c := p.peek(); {
	case c == '"':
		if p.has(`"""`) {
			return p.multiline('"')
		}
		return p.basicString()
	case c == '\'':
		if p.has("'''") {
			return p.multiline('\'')
		}
		return p.literalString()
	case c == '[':
		return p.array(path, depth+1)
	case c == '{':
		return p.inlineTable(path, depth+1)
	case p.eof() || c == '\n' || c == '\r' || c == '#':
		return nil, p.fail("missing value")
	}
	return p.scalar()
}

func (p *parser) array(path string, depth int) (any, error) {
	p.i++ // [
	out := []any{}
	for {
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		if p.peek() == ']' {
			p.i++
			return out, nil
		}
		v, err := p.value(path, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return out, nil
		default:
			return nil, p.fail("expected , or ] in an array")
		}
	}
}

// inlineTable parses { k = v, ... }. Line breaks inside are tolerated (TOML 1.1).
func (p *parser) inlineTable(path string, depth int) (any, error) {
	p.i++ // {
	t := map[string]any{}
	for first := true; ; first = false {
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		if p.peek() == '}' {
			p.i++
			return t, nil
		}
		if !first {
			return nil, p.fail("expected , or } in an inline table")
		}
		for {
			if err := p.keyValue(t, path, depth); err != nil {
				return nil, err
			}
			if err := p.skipBlank(); err != nil {
				return nil, err
			}
			if p.peek() != ',' {
				break
			}
			p.i++
			if err := p.skipBlank(); err != nil {
				return nil, err
			}
			if p.peek() == '}' { // trailing comma (TOML 1.1)
				break
			}
		}
	}
}

// scalar parses a bare value: boolean, number, or date/time (kept as text).
func (p *parser) scalar() (any, error) {
	start := p.i
	for !p.eof() && isScalarChar(p.s[p.i]) {
		p.i++
	}
	tok := p.s[start:p.i]
	// A date and a time may be separated by one space: 1979-05-27 07:32:00Z.
	if isDate(tok) && p.i+1 < len(p.s) && p.s[p.i] == ' ' && isDigit(p.s[p.i+1]) {
		p.i++
		for !p.eof() && isScalarChar(p.s[p.i]) {
			p.i++
		}
		tok = p.s[start:p.i]
	}
	switch tok {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "":
		return nil, p.fail("invalid value")
	}
	if v, ok := number(tok); ok {
		return v, nil
	}
	if isDateTime(tok) {
		return tok, nil
	}
	return nil, p.fail("invalid value")
}

func isScalarChar(c byte) bool { return isBare(c) || c == '+' || c == '.' || c == ':' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// isDateTime accepts the shapes of TOML dates and times without validating calendars.
func isDateTime(s string) bool {
	if len(s) >= 10 && isDate(s[:10]) {
		return len(s) == 10 || (s[10] == 'T' || s[10] == 't' || s[10] == ' ') && isTime(s[11:])
	}
	return isTime(s)
}

func isTime(s string) bool {
	if len(s) < 8 || !isDigit(s[0]) || !isDigit(s[1]) || s[2] != ':' || !isDigit(s[3]) || !isDigit(s[4]) || s[5] != ':' || !isDigit(s[6]) || !isDigit(s[7]) {
		return false
	}
	rest := s[8:]
	if strings.HasPrefix(rest, ".") {
		j := 1
		for j < len(rest) && isDigit(rest[j]) {
			j++
		}
		if j == 1 {
			return false
		}
		rest = rest[j:]
	}
	switch {
	case rest == "" || rest == "Z" || rest == "z":
		return true
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && isDigit(rest[1]) && isDigit(rest[2]) && rest[3] == ':' && isDigit(rest[4]) && isDigit(rest[5]):
		return true
	}
	return false
}

// number parses TOML integers and floats; underscores must sit between digits.
func number(tok string) (any, bool) {
	switch tok {
	case "inf", "+inf":
		return math.Inf(1), true
	case "-inf":
		return math.Inf(-1), true
	case "nan", "+nan", "-nan":
		return math.NaN(), true
	}
	if !underscoresOK(tok) {
		return nil, false
	}
	clean := strings.ReplaceAll(tok, "_", "")
	for _, pre := range []struct {
		prefix string
		base   int
	}{{"0x", 16}, {"0o", 8}, {"0b", 2}} {
		if strings.HasPrefix(clean, pre.prefix) {
			v, err := strconv.ParseInt(clean[2:], pre.base, 64)
			return v, err == nil && clean[2:] != "" && clean[2] != '+' && clean[2] != '-'
		}
	}
	digits := strings.TrimLeft(clean, "+-")
	if len(clean)-len(digits) > 1 || digits == "" || !isDigit(digits[0]) {
		return nil, false
	}
	if !strings.ContainsAny(digits, ".eE") {
		if len(digits) > 1 && digits[0] == '0' {
			return nil, false // leading zeros are not allowed
		}
		v, err := strconv.ParseInt(clean, 10, 64)
		return v, err == nil
	}
	if strings.ContainsAny(digits, "xXpP_") || strings.Contains(digits, ".e") || strings.HasSuffix(digits, ".") || strings.Contains(digits, ".E") {
		return nil, false
	}
	v, err := strconv.ParseFloat(clean, 64)
	return v, err == nil
}

func underscoresOK(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if tok[i] != '_' {
			continue
		}
		if i == 0 || i == len(tok)-1 || !isHexDigit(tok[i-1]) || !isHexDigit(tok[i+1]) {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
