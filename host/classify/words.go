package classify

import "strings"

// word is one argument of a simple command, read so that bash and PowerShell agree on
// its value (docs/safety/shell-classifier.md, "Understood syntax").
type word struct {
	v      string // the value, quotes removed
	quoted bool   // the value came from a quoted string
	glob   bool   // an unquoted * ? [ or ]: bash may expand it into other words
}

// uncPath reports whether a word names another computer's share: two separators
// (\\ or / in any mix, as Windows reads both) at its start, after the first = (an
// option's value), or after the first : of a parameter (-Path:\\host\share).
// Reading such a path makes Windows connect to that computer and offer it the
// user's credentials, and a test runner would run code from it.
func uncPath(v string) bool {
	at := func(i int) bool {
		return i+1 < len(v) && (v[i] == '\\' || v[i] == '/') && (v[i+1] == '\\' || v[i+1] == '/')
	}
	if at(0) {
		return true
	}
	if k := strings.IndexByte(v, '='); k >= 0 && at(k+1) {
		return true
	}
	if strings.HasPrefix(v, "-") {
		if k := strings.IndexByte(v, ':'); k >= 0 && at(k+1) {
			return true
		}
	}
	return false
}

// splitWords reads cmd as one simple command: words separated by spaces and tabs,
// each either bare or one quoted string ('…', or "…" without $ \ or `), or a bare
// --name= followed by one quoted string. Anything else — a variable, a subexpression,
// a script block, an array, a comment, splatting, an escape at the start of a word, a
// quote inside a word, a control or non-ASCII character — is reported as not
// understood, with a phrase naming it.
func splitWords(cmd string) ([]word, string) {
	if Dynamic(cmd) {
		return nil, "a command list, pipe, redirection, backtick or substitution (; & | < > ` $( @( or a line break)"
	}
	var ws []word
	for i := 0; ; {
		for i < len(cmd) && (cmd[i] == ' ' || cmd[i] == '\t') {
			i++
		}
		if i >= len(cmd) {
			return ws, ""
		}
		start := i
		var w word
		for i < len(cmd) && cmd[i] != ' ' && cmd[i] != '\t' {
			c := cmd[i]
			switch {
			case c >= 0x80:
				return nil, "a non-ASCII character (PowerShell reads some as dashes, quotes or spaces)"
			case c < 0x20 || c == 0x7f:
				return nil, "a control character"
			case c == '\'' || c == '"':
				if i != start && (cmd[start] != '-' || cmd[i-1] != '=') {
					return nil, "a quote inside a word"
				}
				end := strings.IndexByte(cmd[i+1:], c)
				if end < 0 {
					return nil, "an unterminated quote"
				}
				body := cmd[i+1 : i+1+end]
				for k := 0; k < len(body); k++ {
					if d := body[k]; d < 0x20 || d >= 0x7f || c == '"' && (d == '$' || d == '\\') {
						return nil, "a character inside quotes that bash and PowerShell read differently"
					}
				}
				w.v = cmd[start:i] + body // the bare --name= before the quote, if any
				w.quoted = true
				i += end + 2
				if i < len(cmd) && cmd[i] != ' ' && cmd[i] != '\t' {
					return nil, "text after a closing quote"
				}
				continue
			case c == '$':
				return nil, "a variable ($)"
			case c == '(' || c == ')':
				return nil, "parentheses (a subexpression or grouping)"
			case c == '{' || c == '}':
				return nil, "braces (a script block or brace expansion)"
			case c == ',':
				return nil, "a comma (a PowerShell array)"
			case c == '!':
				return nil, "an exclamation mark"
			case i == start && c == '#':
				return nil, "a comment (#)"
			case i == start && c == '@':
				return nil, "@ at the start of a word (splatting, an array or a response file)"
			case i == start && c == '\\':
				return nil, "a backslash at the start of a word (an escape in bash)"
			case i == start && (c == '^' || c == '%'):
				return nil, "^ or % at the start of a word (an escape or a variable in cmd)"
			case c == '*' || c == '?' || c == '[' || c == ']':
				w.glob = true
			}
			i++
		}
		if !w.quoted {
			w.v = cmd[start:i]
		}
		if w.v == "--%" && !w.quoted {
			return nil, "--% (PowerShell's stop-parsing token)"
		}
		if uncPath(w.v) {
			return nil, `a UNC path (\\host\share or //host/share), which reaches another computer`
		}
		ws = append(ws, w)
	}
}
