package hook

import (
	"strings"
	"unicode/utf8"
)

// copilotKeys are the key names the Copilot CLI's write_bash and write_powershell
// accept inside input (docs/hosts/copilot.md, "Typing into a running shell"); it
// turns each into the terminal's bytes before writing.
var copilotKeys = []string{"{enter}", "{backspace}", "{left}", "{right}", "{up}", "{down}"}

// typedInput is what a write into a running shell amounts to.
type typedInput struct {
	// text is the lines typed, after line editing (backspace, left, right), joined
	// with "\n"; the last line may be unfinished (partial).
	text string
	// raw is the input with every key and control character made a line break,
	// without editing: a second reading, so a forbidden word split by an editing key
	// is still seen.
	raw string
	// partial: the last line has no Enter yet, so a later write completes it.
	partial bool
	// inexact: the input holds keys whose effect depends on what the shell or the
	// program already holds (history, a cursor moved or a character erased before
	// this write's text, completion, other control characters).
	inexact bool
}

// readTyped reads the input of a write_bash or write_powershell call as a line editor
// would: printable text is inserted at the cursor; {enter}, CR, LF and CR LF end a
// line; {backspace}, BS and DEL erase the character before the cursor; {left},
// {right} and their escape sequences move it. Everything else marks the reading
// inexact and is dropped. Work and memory are linear in len(s).
func readTyped(s string) typedInput {
	var t typedInput
	var lines []string
	var raw strings.Builder
	raw.Grow(len(s))
	var line []rune
	cursor := 0
	endLine := func() {
		lines = append(lines, string(line))
		line, cursor = line[:0], 0
		raw.WriteByte('\n')
	}
	// edit applies a key other than {enter} (an escape sequence as the key it stands
	// for, "" for any other); the raw reading breaks the line there.
	edit := func(k string) {
		switch k {
		case "{backspace}":
			if cursor == 0 {
				t.inexact = true // it erases what an earlier write typed
				break
			}
			line = append(line[:cursor-1], line[cursor:]...)
			cursor--
		case "{left}":
			if cursor == 0 {
				t.inexact = true
			} else {
				cursor--
			}
		case "{right}":
			if cursor < len(line) {
				cursor++
			}
		default: // {up}, {down} (history or a menu), any other escape sequence or control character
			t.inexact = true
		}
		raw.WriteByte('\n')
	}
	for i := 0; i < len(s); {
		if s[i] == '{' {
			if k := keyAt(s[i:]); k != "" {
				i += len(k)
				if k == "{enter}" {
					endLine()
				} else {
					edit(k)
				}
				continue
			}
		}
		c := s[i]
		switch {
		case c == '\r':
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			endLine()
			continue
		case c == '\n':
			i++
			endLine()
			continue
		case c == '\b' || c == 0x7f:
			i++
			edit("{backspace}")
			continue
		case c == 0x1b:
			n := escapeLen(s[i:])
			edit(escapeKey(s[i : i+n]))
			i += n
			continue
		case c < 0x20:
			i++
			edit("") // Tab completes, Ctrl-C, Ctrl-U, Ctrl-W… edit or interrupt
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		raw.WriteString(s[i : i+size])
		i += size
		line = append(line, 0)
		copy(line[cursor+1:], line[cursor:])
		line[cursor] = r
		cursor++
	}
	if len(line) > 0 {
		t.partial = true
		lines = append(lines, string(line))
	}
	t.text = strings.Join(lines, "\n")
	t.raw = raw.String()
	return t
}

// keyAt is the Copilot key name s starts with, or "".
func keyAt(s string) string {
	for _, k := range copilotKeys {
		if strings.HasPrefix(s, k) {
			return k
		}
	}
	return ""
}

// escapeKey is the key an escape sequence stands for among those readTyped edits
// with (the arrows that move the cursor on the line), or "".
func escapeKey(seq string) string {
	switch seq {
	case "\x1b[D":
		return "{left}"
	case "\x1b[C":
		return "{right}"
	}
	return ""
}

// escapeLen is the length of the escape sequence at the start of s (which starts with
// ESC): ESC [ parameters final-byte, ESC O x, or ESC and one more byte.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case 'O':
		return min(3, len(s))
	}
	return 2
}
