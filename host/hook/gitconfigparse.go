package hook

import (
	"errors"
	"fmt"
	"strings"
)

// parseGitConfig reads a git config file as git's own parser does (the syntax of
// git-config(1), "CONFIGURATION FILE") and calls fn for each variable in order:
// section and key lower-cased; sub is the subsection ("" for none: "[section
// "sub"]" keeps its case, the old "[section.sub]" form is lower-cased); hasValue is
// false for a key without "=" (a true boolean). fn returns false to stop. Anything git
// would reject is an error; so is anything this reading is unsure of, which makes the
// caller ask rather than guess.
func parseGitConfig(data []byte, fn func(section, sub, key, value string, hasValue bool) bool) error {
	r := configReader{data: data}
	if len(data) >= 3 && string(data[:3]) == "\xef\xbb\xbf" {
		r.pos = 3
	}
	var section, sub string
	haveSection, comment := false, false
	for {
		c := r.next()
		if c == '\n' {
			if r.eof {
				return nil
			}
			comment = false
			continue
		}
		if comment || isConfigSpace(c) {
			continue
		}
		switch {
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			var err error
			if section, sub, err = r.sectionHeader(); err != nil {
				return r.errorf("%v", err)
			}
			haveSection = true
			continue
		case !isAlpha(c):
			return r.errorf("a line starts with %q", c)
		case !haveSection:
			return r.errorf("a variable comes before any section")
		}
		key, value, hasValue, err := r.variable(c)
		if err != nil {
			return r.errorf("%v", err)
		}
		if !fn(section, sub, key, value, hasValue) {
			return nil
		}
	}
}

// configReader is git's get_next_char: CR LF reads as LF, and the end of the data
// reads as LF with eof set.
type configReader struct {
	data []byte
	pos  int
	line int
	eof  bool
}

func (r *configReader) next() byte {
	if r.pos >= len(r.data) {
		r.eof = true
		return '\n'
	}
	c := r.data[r.pos]
	r.pos++
	if c == '\r' && r.pos < len(r.data) && r.data[r.pos] == '\n' {
		r.pos++
		c = '\n'
	}
	if c == '\n' {
		r.line++
	}
	return c
}

func (r *configReader) errorf(format string, a ...any) error {
	return fmt.Errorf("line %d: %s", r.line+1, fmt.Sprintf(format, a...))
}

// maxConfigName bounds a section or key name as git does (MAXNAME).
const maxConfigName = 256

var errIncomplete = errors.New("an incomplete section header")

// sectionHeader reads the rest of "[section]", "[section "sub"]" or "[section.sub]"
// after the "[". Nothing is required after the "]": git goes on reading a variable on
// the same line.
func (r *configReader) sectionHeader() (section, sub string, err error) {
	var name strings.Builder
	for {
		c := r.next()
		switch {
		case r.eof:
			return "", "", errIncomplete
		case c == ']':
			s := name.String()
			if s == "" {
				return "", "", errors.New("an empty section name")
			}
			if head, tail, dotted := strings.Cut(s, "."); dotted {
				return head, tail, nil
			}
			return s, "", nil
		case isConfigSpace(c):
			if name.Len() == 0 || strings.Contains(name.String(), ".") {
				return "", "", errors.New("a malformed section header")
			}
			sub, err := r.subsection(c)
			return name.String(), sub, err
		case !isKeyChar(c) && c != '.':
			return "", "", fmt.Errorf("%q in a section name", c)
		case name.Len() >= maxConfigName:
			return "", "", errors.New("a section name that is too long")
		}
		name.WriteByte(lowerASCII(c))
	}
}

// subsection reads ` "sub"]` after a section name; c is the first space.
func (r *configReader) subsection(c byte) (string, error) {
	for isConfigSpace(c) {
		if c == '\n' {
			return "", errIncomplete
		}
		c = r.next()
	}
	if c != '"' {
		return "", errors.New("a subsection that is not quoted")
	}
	var sub strings.Builder
	for {
		c := r.next()
		if c == '\n' {
			return "", errIncomplete
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = r.next(); c == '\n' {
				return "", errIncomplete
			}
		}
		sub.WriteByte(c)
	}
	if r.next() != ']' {
		return "", errors.New("a subsection not followed by ]")
	}
	return sub.String(), nil
}

// variable reads "key", "key = value" after its first letter c.
func (r *configReader) variable(c byte) (key, value string, hasValue bool, err error) {
	var name strings.Builder
	name.WriteByte(lowerASCII(c))
	for {
		c = r.next()
		if r.eof || !isKeyChar(c) {
			break
		}
		if name.Len() >= maxConfigName {
			return "", "", false, errors.New("a variable name that is too long")
		}
		name.WriteByte(lowerASCII(c))
	}
	for c == ' ' || c == '\t' {
		c = r.next()
	}
	if c == '\n' {
		return name.String(), "", false, nil
	}
	if c != '=' {
		return "", "", false, fmt.Errorf("%q after variable %s", c, name.String())
	}
	value, err = r.value()
	return name.String(), value, true, err
}

// value is git's parse_value: leading blanks skipped, runs of blanks inside kept as
// spaces, trailing blanks dropped, "…" quoting, # and ; comments outside quotes, the
// escapes \\ \" \n \t \b and a backslash before the line end continuing the value.
func (r *configReader) value() (string, error) {
	var v strings.Builder
	quote, comment, spaces := false, false, 0
	for {
		c := r.next()
		if c == '\n' {
			if quote {
				return "", errors.New("an unterminated quoted value")
			}
			return v.String(), nil
		}
		if comment {
			continue
		}
		if isConfigSpace(c) && !quote {
			if v.Len() > 0 {
				spaces++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			v.WriteByte(' ')
		}
		if c == '\\' {
			switch c = r.next(); c {
			case '\n':
				continue // a continuation line (at the end of the file: the end of the value)
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", fmt.Errorf("the unknown escape \\%c", c)
			}
			v.WriteByte(c)
			continue
		}
		if c == '"' {
			quote = !quote
			continue
		}
		v.WriteByte(c)
	}
}

// isConfigSpace is git's isspace (its own ctype table): space, tab, LF and CR only; a
// vertical tab or form feed is an ordinary character to git, so "true\v" is not a
// boolean.
func isConfigSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isKeyChar is git's iskeychar: a letter, a digit or '-'.
func isKeyChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '-' }
