package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxArgsBytes bounds an arguments file or stdin: tool arguments are small, and a
// mistaken `--args-file` on a large file should fail at once, not fill memory.
const maxArgsBytes = 4 << 20

// readArgs reads the JSON arguments of `wda call` from a file ("-" for stdin).
func readArgs(name string, stdin io.Reader, open func(string) (io.ReadCloser, error)) ([]byte, string, error) {
	origin := name
	var r io.Reader
	if name == "-" {
		origin, r = "standard input", stdin
	} else {
		f, err := open(name)
		if err != nil {
			return nil, origin, fmt.Errorf("cannot read the arguments file: %v", err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxArgsBytes+1))
	if err != nil {
		return nil, origin, fmt.Errorf("cannot read the arguments from %s: %v", origin, err)
	}
	if len(b) > maxArgsBytes {
		return nil, origin, fmt.Errorf("the arguments in %s are larger than %d MiB", origin, maxArgsBytes>>20)
	}
	return b, origin, nil
}

// ArgsError is JSON arguments that cannot be used, said for a person: where, what, and
// what to do instead.
type ArgsError struct {
	Origin  string // "the command line", a file name, "standard input"
	Line    int    // 1-based; 0 when the position does not matter
	Column  int
	Msg     string
	Hint    string
	Excerpt string // the offending line with a caret under the column
}

func (e *ArgsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the JSON arguments from %s", e.Origin)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d, column %d)", e.Line, e.Column)
	}
	fmt.Fprintf(&b, " %s", e.Msg)
	if e.Excerpt != "" {
		b.WriteString("\n" + e.Excerpt)
	}
	if e.Hint != "" {
		b.WriteString("\n" + e.Hint)
	}
	return b.String()
}

// fileHint is what a Windows user should do instead of fighting the shell's quoting.
const fileHint = `Tip: put the arguments in a file and pass --args-file FILE, or pipe them in with --args-file - ` +
	`(no quoting needed in cmd.exe or PowerShell).`

// parseArgs checks that src is one JSON object and returns it in UTF-8. It accepts
// what Windows editors and PowerShell 5.1 write: a UTF-8 byte-order mark, and UTF-16
// with a byte-order mark (PowerShell 5.1's `>` writes UTF-16LE). It never returns a
// Go-internal message: every error is an *ArgsError.
func parseArgs(src []byte, origin string) (json.RawMessage, error) {
	src, err := toUTF8(src, origin)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(src)
	if len(trimmed) == 0 {
		return nil, &ArgsError{Origin: origin, Msg: `are empty: give a JSON object such as {"capability":"test-go"}, or {} for no arguments.`, Hint: fileHint}
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, syntaxError(src, origin, err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, &ArgsError{Origin: origin, Msg: fmt.Sprintf("are a JSON %s, not an object: tool arguments are an object such as {\"capability\":\"test-go\"}.", kindOf(v)), Hint: fileHint}
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		off := end
		for off < len(src) && strings.ContainsRune(" \t\r\n", rune(src[off])) {
			off++
		}
		line, col := position(src, off)
		return nil, &ArgsError{Origin: origin, Line: line, Column: col, Excerpt: excerpt(src, off),
			Msg: "have more text after the closing }: give exactly one JSON object.", Hint: fileHint}
	}
	return json.RawMessage(trimmed), nil
}

// escapeWarnings finds Windows paths that are valid JSON but not what was meant:
// "C:\temp" decodes to C:, a tab and "emp". Such a call is not refused (the text is
// valid JSON), so the user is told before it runs.
func escapeWarnings(src []byte) []string {
	var out []string
	names := map[byte]string{'b': "a backspace", 'f': "a form feed", 'n': "a newline", 'r': "a carriage return", 't': "a tab"}
	for i := 0; i+3 < len(src); i++ {
		c := src[i]
		if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') || src[i+1] != ':' || src[i+2] != '\\' {
			continue
		}
		if what, ok := names[src[i+3]]; ok {
			end := i + 4
			for end < len(src) && src[end] != '"' && end-i < 40 {
				end++
			}
			out = append(out, fmt.Sprintf("\"%s\" in the JSON holds %s after %c:, not a backslash: JSON reads \\%c as an escape. Write %c:\\\\… or %c:/… instead.",
				string(src[i:end]), what, c, src[i+3], c, c))
		}
	}
	return out
}

func toUTF8(src []byte, origin string) ([]byte, error) {
	switch {
	case bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}):
		src = src[3:]
	case bytes.HasPrefix(src, []byte{0xFF, 0xFE}), bytes.HasPrefix(src, []byte{0xFE, 0xFF}):
		if len(src)%2 != 0 {
			return nil, &ArgsError{Origin: origin, Msg: "are UTF-16 text with an odd number of bytes: save the file again as UTF-8."}
		}
		le := src[0] == 0xFF
		units := make([]uint16, 0, len(src)/2-1)
		for i := 2; i+1 < len(src); i += 2 {
			if le {
				units = append(units, uint16(src[i])|uint16(src[i+1])<<8)
			} else {
				units = append(units, uint16(src[i])<<8|uint16(src[i+1]))
			}
		}
		src = []byte(string(utf16.Decode(units)))
	}
	if !utf8.Valid(src) {
		return nil, &ArgsError{Origin: origin, Msg: "are not UTF-8 text: save the file as UTF-8 (or UTF-16 with a byte-order mark)."}
	}
	return src, nil
}

// syntaxError turns a decoding error into a position and advice.
func syntaxError(src []byte, origin string, err error) error {
	var se *json.SyntaxError
	off := len(src)
	msg := "are not valid JSON"
	switch {
	case errors.As(err, &se):
		off = int(se.Offset)
		// The offset is just past the offending byte.
		if off > 0 {
			off--
		}
		msg = "are not valid JSON: " + strings.TrimPrefix(se.Error(), "json: ")
	case errors.Is(err, io.ErrUnexpectedEOF):
		msg = "end too early: a closing } or ] or \" is missing"
	default:
		msg = "are not valid JSON"
	}
	line, col := position(src, off)
	e := &ArgsError{Origin: origin, Line: line, Column: col, Msg: msg + ".", Excerpt: excerpt(src, off), Hint: fileHint}
	t := bytes.TrimSpace(src)
	switch {
	case len(t) > 0 && t[0] == '\'':
		e.Hint = "The single quotes reached wda: cmd.exe and PowerShell 5.1 pass them on. " + fileHint
	case len(t) > 0 && t[0] == '{' && bytes.IndexByte(t, '"') < 0 && bytes.ContainsAny(t, ":"):
		e.Hint = "The double quotes were removed by the shell (cmd.exe and PowerShell 5.1 do this). " + fileHint
	case se != nil && strings.Contains(se.Error(), "escape"):
		e.Hint = `A backslash in a JSON string starts an escape: write a Windows path as C:\\Users\\me or C:/Users/me. ` + fileHint
	}
	return e
}

// position is the 1-based line and column (in characters) of byte offset off.
func position(src []byte, off int) (int, int) {
	off = min(max(off, 0), len(src))
	before := src[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// excerpt is the line holding off (at most 80 characters around it) with a caret
// under off.
func excerpt(src []byte, off int) string {
	off = min(max(off, 0), len(src))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += off
	}
	line := []rune(strings.TrimRight(string(src[start:end]), "\r"))
	col := utf8.RuneCount(src[start:off])
	from := max(0, col-40)
	to := min(len(line), from+80)
	if from > to {
		from = to
	}
	shown := strings.Map(func(r rune) rune {
		if r < 0x20 {
			return ' '
		}
		return r
	}, string(line[from:to]))
	return "  " + shown + "\n  " + strings.Repeat(" ", col-from) + "^"
}

func kindOf(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "value"
}
