package classify

import (
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file turns one command line into the views the forbidden rules read
// (docs/safety/shell-classifier.md, "Normalisations"). Every view is built in one pass
// over its input, so the classifier stays linear in the command length.

// fold returns s in the matching alphabet. ASCII letters are lower-cased. The four
// non-ASCII letters that case-fold to an ASCII letter (ſ→s, K→k, ı→i, İ→i) become that
// letter in UPPER case: matching compares with lc and so sees the letter, while
// isWord does not count it, exactly as the old (?i) patterns saw them (Go's \b counts
// only ASCII word characters). Unicode spaces become ' ', the dashes PowerShell
// accepts for '-' become '-', the typographic quotes it accepts become ' and ".
// Everything else (other runes, invalid bytes) is copied byte for byte, and is never a
// word character.
func fold(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			out = append(out, lc(c))
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, c)
		case r == '\u017F': // ſ
			out = append(out, 'S')
		case r == '\u212A': // Kelvin sign
			out = append(out, 'K')
		case r == '\u0131' || r == '\u0130': // ı İ
			out = append(out, 'I')
		case isDash(r):
			out = append(out, '-')
		case isSingleQuote(r):
			out = append(out, '\'')
		case isDoubleQuote(r):
			out = append(out, '"')
		case unicode.IsSpace(r):
			out = append(out, ' ')
		default:
			out = append(out, s[i:i+n]...)
		}
		i += n
	}
	return out
}

func lc(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isWord is the \b alphabet of Go's regexp: ASCII letters (lower case here, since
// fold lowered them), digits and '_'.
func isWord(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_'
}

func isLetter(c byte) bool { c = lc(c); return 'a' <= c && c <= 'z' }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// PowerShell's tokenizer treats these as '-' (en dash, em dash, horizontal bar); the
// other hyphens and the minus sign are added because treating them alike only adds
// matches.
func isDash(r rune) bool { return r >= 0x2010 && r <= 0x2015 || r == 0x2212 }

// The quote characters PowerShell accepts besides ' and ".
func isSingleQuote(r rune) bool { return r >= 0x2018 && r <= 0x201B }
func isDoubleQuote(r rune) bool { return r >= 0x201C && r <= 0x201E }

// quoteAt reports the byte length of a quote character (any of ' " and the
// typographic ones) at s[i], or 0.
func quoteAt(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	if s[i] == '\'' || s[i] == '"' {
		return 1
	}
	if s[i] < utf8.RuneSelf {
		return 0
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if isSingleQuote(r) || isDoubleQuote(r) {
		return n
	}
	return 0
}

// unescape removes what bash, cmd and PowerShell strip from a word before they use it:
// quotes (joined pieces 'dis'+'kpart' included), cmd carets, PowerShell backtick
// escapes and invisible format characters (zero-width space, soft hyphen, BOM …).
// With special false a backtick makes the next character literal (for`mat); with
// special true it has PowerShell's double-quoted meaning (`t `n `r `v `f white space,
// `0 `a `b `e nothing). `u{hex} is decoded either way. Case is kept: the base64 finder
// reads this view.
func unescape(s string, special bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if q := quoteAt(s, i); q > 0 {
			i += q
			// A quote, optional blanks, '+', optional blanks and a quote: a join.
			j := skipBlanks(s, i)
			if j < len(s) && s[j] == '+' {
				k := skipBlanks(s, j+1)
				if q2 := quoteAt(s, k); q2 > 0 {
					i = k + q2
				}
			}
			continue
		}
		c := s[i]
		switch c {
		case '^':
			i++
			continue
		case '`':
			i++
			if i >= len(s) {
				continue
			}
			if r, n := braceEscape(s[i:]); n > 0 {
				b.WriteRune(r)
				i += n
				continue
			}
			if special {
				switch s[i] {
				case 't', 'n', 'r', 'v', 'f', 'T', 'N', 'R', 'V', 'F':
					b.WriteByte(' ')
					i++
					continue
				case '0', 'a', 'b', 'e', 'A', 'B', 'E':
					i++
					continue
				}
			}
			_, n := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || !unicode.Is(unicode.Cf, r) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// braceEscape decodes u{XXXX} (PowerShell 7's `u{…}) at the start of s.
func braceEscape(s string) (rune, int) {
	if len(s) < 4 || lc(s[0]) != 'u' || s[1] != '{' {
		return 0, 0
	}
	v, n := hexPrefix(s[2:], 6)
	if n == 0 || 2+n >= len(s) || s[2+n] != '}' || v > unicode.MaxRune {
		return 0, 0
	}
	return rune(v), 3 + n
}

// hexPrefix reads up to max hex digits at the start of s.
func hexPrefix(s string, max int) (uint32, int) {
	var v uint32
	n := 0
	for n < len(s) && n < max {
		d, ok := hexDigit(s[n])
		if !ok {
			break
		}
		v = v<<4 | uint32(d)
		n++
	}
	return v, n
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= lc(c) && lc(c) <= 'f':
		return lc(c) - 'a' + 10, true
	}
	return 0, false
}

// dropBackslashes is bash's reading of unquoted backslashes: \c is c (dis\kpart).
func dropBackslashes(v []byte) []byte {
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
		}
		out = append(out, v[i])
	}
	return out
}

// ansiC decodes bash's $'…' escapes everywhere in s: \xHH, \NNN (octal), \uHHHH,
// \UHHHHHHHH, and \n \t \r \v \f as a space; any other \c is c.
func ansiC(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; {
		case c == 'x':
			if v, n := hexPrefix(s[i+1:], 2); n > 0 {
				b.WriteByte(byte(v)) //nolint:gosec // G115: hexPrefix reads at most two hex digits, so v < 256
				i += n
				continue
			}
		case c == 'u' || c == 'U':
			max := 4
			if c == 'U' {
				max = 8
			}
			if v, n := hexPrefix(s[i+1:], max); n > 0 && v <= unicode.MaxRune {
				b.WriteRune(rune(v))
				i += n
				continue
			}
		case '0' <= c && c <= '7':
			v, n := 0, 0
			for n < 3 && i+n < len(s) && '0' <= s[i+n] && s[i+n] <= '7' {
				v = v<<3 | int(s[i+n]-'0')
				n++
			}
			b.WriteByte(byte(v))
			i += n - 1
			continue
		case c == 'n' || c == 't' || c == 'r' || c == 'v' || c == 'f':
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// minBase64 is the shortest run the base64 finder decodes: 12 characters are 9 bytes,
// enough for "diskpart" in UTF-8; an encoded command is UTF-16 and twice as long.
const minBase64 = 12

// base64Runs calls f with every maximal run of the standard base64 alphabet in s that
// is at least minBase64 long (trailing '=' included).
func base64Runs(s string, f func(run string) bool) bool {
	for i := 0; i < len(s); {
		if !isBase64(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64(s[j]) {
			j++
		}
		for j < len(s) && s[j] == '=' {
			j++
		}
		if j-i >= minBase64 && f(s[i:j]) {
			return true
		}
		i = j
	}
	return false
}

func isBase64(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/'
}

// decodeBase64 decodes a run leniently: padding is optional and a dangling last
// character is dropped, since PowerShell and .NET decode what an attacker hands them.
func decodeBase64(run string) []byte {
	run = strings.TrimRight(run, "=")
	if len(run)%4 == 1 {
		run = run[:len(run)-1]
	}
	d, err := base64.RawStdEncoding.DecodeString(run)
	if err != nil {
		return nil
	}
	return d
}

// utf16le reads b as UTF-16 little-endian, the encoding of -EncodedCommand.
func utf16le(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}
