package tomlmini

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

func isControl(c byte) bool { return c < 0x20 && c != '\t' || c == 0x7f }

// basicString parses "..." with escapes.
func (p *parser) basicString() (string, error) {
	p.i++ // "
	var b strings.Builder
	for {
		if p.eof() || p.s[p.i] == '\n' || p.s[p.i] == '\r' {
			return "", p.fail("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case isControl(c):
			return "", p.fail("control character in string")
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

// literalString parses '...' (no escapes).
func (p *parser) literalString() (string, error) {
	p.i++ // '
	start := p.i
	for {
		if p.eof() || p.s[p.i] == '\n' || p.s[p.i] == '\r' {
			return "", p.fail("unterminated string")
		}
		c := p.s[p.i]
		if c == '\'' {
			s := p.s[start:p.i]
			p.i++
			return s, nil
		}
		if isControl(c) {
			return "", p.fail("control character in string")
		}
		p.i++
	}
}

// multiline parses """...""" (q == '"', with escapes) or ”'...”' (q == '\”).
func (p *parser) multiline(q byte) (string, error) {
	p.i += 3
	p.newline() // a line break right after the opening delimiter is trimmed
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.fail("unterminated multi-line string")
		}
		c := p.s[p.i]
		switch {
		case c == q:
			n := 0
			for p.i+n < len(p.s) && p.s[p.i+n] == q {
				n++
			}
			if n < 3 {
				b.WriteString(p.s[p.i : p.i+n])
				p.i += n
				continue
			}
			if n > 5 {
				return "", p.fail("too many quotes closing a multi-line string")
			}
			b.WriteString(p.s[p.i : p.i+n-3]) // up to two quotes may end the content
			p.i += n
			return b.String(), nil
		case c == '\\' && q == '"':
			if p.lineEndingBackslash() {
				continue
			}
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c == '\n' || c == '\r' && p.has("\r\n"):
			b.WriteByte('\n')
			p.newline()
		case isControl(c):
			return "", p.fail("control character in string")
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

// lineEndingBackslash consumes a backslash followed by optional blanks and a line
// break, and all whitespace after it, reporting whether it did.
func (p *parser) lineEndingBackslash() bool {
	j := p.i + 1
	for j < len(p.s) && (p.s[j] == ' ' || p.s[j] == '\t') {
		j++
	}
	if j >= len(p.s) || p.s[j] != '\n' && !strings.HasPrefix(p.s[j:], "\r\n") {
		return false
	}
	p.i = j
	for {
		p.skipSpace()
		if !p.newline() {
			return true
		}
	}
}

func (p *parser) escape(b *strings.Builder) error {
	if p.i+1 >= len(p.s) {
		return p.fail("unterminated string")
	}
	c := p.s[p.i+1]
	p.i += 2
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case 'e':
		b.WriteByte(0x1b)
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'x', 'u', 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		if p.i+n > len(p.s) {
			return p.fail("invalid unicode escape")
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		if err != nil || v > unicode.MaxRune || !utf8.ValidRune(rune(v)) || strings.ContainsAny(p.s[p.i:p.i+n], "+-_") {
			return p.fail("invalid unicode escape")
		}
		p.i += n
		b.WriteRune(rune(v))
	default:
		return p.fail("invalid escape sequence")
	}
	return nil
}
