package pkgtable

import (
	"strings"
	"unicode/utf8"
)

// Lines splits captured console output into the lines a reader of the final screen
// would see. ANSI/VT escape sequences (colour, cursor, OSC 9;4 progress) are removed;
// within a line, carriage returns mean "overwrite from column 0", so the line becomes
// what a console would show after the overwrites (WinGet erases its spinner and
// progress bar with "\r<spaces>\r" before writing the next real line); backspaces delete the
// previous character; other control characters are dropped; trailing blanks are
// trimmed. A CRLF line ending is an ordinary line ending.
func Lines(out string) []string {
	// Invalid UTF-8 becomes U+FFFD first, as the process runner decodes it, so every
	// cell is a substring of the normalised text.
	out = stripEscapes(strings.ToValidUTF8(out, "\uFFFD"))
	raw := strings.Split(out, "\n")
	lines := make([]string, len(raw))
	for i, l := range raw {
		lines[i] = settle(l)
	}
	return lines
}

// settle reduces one physical line to what remained visible: each carriage return
// moves the cursor back to column 0 and later characters overwrite earlier ones, as on
// a console (rune by rune; spinners and progress bars are single-width).
func settle(l string) string {
	l = strings.TrimRight(l, "\r")
	if !strings.ContainsAny(l, "\r\b\t") && printable(l) {
		return strings.TrimRight(l, " ")
	}
	var screen []rune
	for _, seg := range strings.Split(l, "\r") {
		for i, r := range []rune(clean(seg)) {
			if i < len(screen) {
				screen[i] = r
			} else {
				screen = append(screen, r)
			}
		}
	}
	return strings.TrimRight(string(screen), " ")
}

// printable reports that l has no control characters to remove.
func printable(l string) bool {
	for _, r := range l {
		if control(r) {
			return false
		}
	}
	return true
}

func control(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f)
}

// clean applies backspaces, turns tabs into a space and drops other control characters.
func clean(seg string) string {
	var b []rune
	for _, r := range seg {
		switch {
		case r == '\b':
			if len(b) > 0 {
				b = b[:len(b)-1]
			}
		case r == '\t':
			b = append(b, ' ')
		case control(r):
		default:
			b = append(b, r)
		}
	}
	return string(b)
}

// stripEscapes removes CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \) and other
// two-byte ESC sequences. An unterminated sequence is dropped to the end of its line.
func stripEscapes(s string) string {
	if !strings.ContainsRune(s, 0x1b) && !strings.ContainsRune(s, 0x9b) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != 0x1b && r != 0x9b {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		i += n
		if r == 0x9b { // 8-bit CSI
			i = skipCSI(s, i)
			continue
		}
		if i >= len(s) {
			break
		}
		switch s[i] {
		case '[':
			i = skipCSI(s, i+1)
		case ']', 'P', '_', '^', 'X':
			i = skipString(s, i+1)
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
		}
	}
	return b.String()
}

// skipCSI skips parameter and intermediate bytes and the final byte.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f:
			i++
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		default:
			return i // malformed: leave the byte for ordinary handling
		}
	}
	return i
}

// skipString skips an OSC/DCS/APC/PM/SOS string up to BEL or ESC \ (or the line end).
func skipString(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case 0x07:
			return i + 1
		case 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		case '\n':
			return i
		}
		i++
	}
	return i
}
