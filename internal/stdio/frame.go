package stdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// readLine reads one line: the bytes before the next '\n', less one '\r' right before
// it (CRLF). A line longer than limit bytes is drained to its end, reported as over,
// and only its first limit bytes are kept, so an id near the start can still be read.
func readLine(r *bufio.Reader, limit int) (line []byte, over bool, err error) {
	total := 0
	var prev, last byte // the last two bytes read
	for {
		chunk, e := r.ReadSlice('\n')
		if room := limit + 2 - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		total += len(chunk)
		switch n := len(chunk); {
		case n >= 2:
			prev, last = chunk[n-2], chunk[n-1]
		case n == 1:
			prev, last = last, chunk[0]
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		n := total
		if n > 0 && last == '\n' {
			n--
			if n > 0 && prev == '\r' {
				n--
			}
		}
		if n > limit {
			return line[:limit], true, e
		}
		return line[:n], false, e
	}
}

// blank reports whether a line holds JSON whitespace only; such lines get no reply.
func blank(line []byte) bool { return len(bytes.Trim(line, " \t\r")) == 0 }

// member is one top-level member of a message object: its raw value and where that
// value sits in the line.
type member struct {
	raw        []byte
	start, end int
}

// envelope is what the scan of one line learned: the top-level members read before
// the first syntax error (if any), and why the line is not a usable message.
type envelope struct {
	members map[string]member
	dup     string // the first member name that occurred twice
	idDup   bool   // "id" itself occurred twice, so no single id can be echoed
	object  bool   // the line starts a JSON object
	syntax  error  // the first syntax error, or trailing data after the object
}

// scan reads the top-level members of a JSON object line. It stops at the first syntax
// error but keeps what it read before it, which is how an id stays readable in a line
// that is broken further on (or cut off by the size limit).
func scan(line []byte) envelope {
	env := envelope{members: map[string]member{}}
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		env.syntax = err
		return env
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		// A complete value that is not an object (a batch array included) is valid
		// JSON but not a request; say which, and whether it was even valid.
		env.syntax = validRest(dec, tok)
		return env
	}
	env.object = true
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			env.syntax = err
			return env
		}
		key, _ := kt.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			env.syntax = err
			return env
		}
		end := int(dec.InputOffset())
		start := end - len(raw)
		if start < 0 || !bytes.Equal(line[start:end], raw) {
			// The decoder always hands back the value's exact bytes; if that ever
			// changes, refuse to guess offsets.
			env.syntax = errors.New("cannot locate member value")
			return env
		}
		if _, seen := env.members[key]; seen {
			if env.dup == "" {
				env.dup = key
			}
			if key == "id" {
				env.idDup = true
			}
			continue
		}
		env.members[key] = member{raw: raw, start: start, end: end}
	}
	if _, err := dec.Token(); err != nil {
		env.syntax = err
		return env
	}
	if _, err := dec.Token(); err != io.EOF {
		env.syntax = errors.New("unexpected data after the JSON object")
	}
	return env
}

// validRest reads the rest of a value that is not an object, whose first token was
// first. It returns errNotObject when the line holds exactly one valid JSON value, and
// the syntax error otherwise.
func validRest(dec *json.Decoder, first json.Token) error {
	depth := 0
	for tok := first; ; {
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
		if depth == 0 {
			break
		}
		var err error
		if tok, err = dec.Token(); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	return errNotObject
}

var errNotObject = errors.New("not an object")

// idKind classifies a raw id value.
type idKind int

const (
	idAbsent idKind = iota
	idNull
	idString
	idNumber
	idOther // true, false, an object or an array: never a valid id
)

func kindOf(raw []byte) idKind {
	if raw == nil {
		return idAbsent
	}
	switch c := raw[0]; {
	case c == '"':
		return idString
	case c == '-' || (c >= '0' && c <= '9'):
		return idNumber
	case c == 'n':
		return idNull
	}
	return idOther
}

// readableID returns the id of env that can be echoed: a string or number member
// named "id" that occurred once and is valid UTF-8 (output is always valid UTF-8), or
// nil for null.
func readableID(env envelope) []byte {
	m, ok := env.members["id"]
	if !ok || env.idDup {
		return nil
	}
	if k := kindOf(m.raw); (k == idString || k == idNumber) && utf8.Valid(m.raw) {
		return m.raw
	}
	return nil
}

// idKey is the canonical form of an id used to match duplicates and cancellations:
// ids equal as JSON values have equal keys (1, 1.0 and 1e0; "a" and "\u0061"), while
// the reply still carries each request's own bytes.
func idKey(raw []byte) string {
	if kindOf(raw) == idString {
		return canonString(raw)
	}
	return canonNumber(raw)
}

// canonString decodes a valid JSON string literal. A lone surrogate escape has no
// UTF-8 form, so it is kept as a 0xFF byte plus its hex (0xFF never occurs in valid
// UTF-8), which keeps "\ud800" and "\ud801" apart.
func canonString(raw []byte) string {
	var b strings.Builder
	b.WriteByte('s')
	s := raw[1 : len(raw)-1]
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		e := s[i+1]
		i += 2
		if e != 'u' {
			b.WriteByte(unescape(e))
			continue
		}
		r := hex4(s[i:])
		i += 4
		if utf16.IsSurrogate(r) && r < 0xdc00 && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
			if lo := hex4(s[i+2:]); lo >= 0xdc00 && lo < 0xe000 {
				r = utf16.DecodeRune(r, lo)
				i += 6
			}
		}
		if utf16.IsSurrogate(r) {
			fmt.Fprintf(&b, "\xff%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unescape is the byte a one-letter escape stands for (\" \\ \/ stand for themselves).
func unescape(e byte) byte {
	switch e {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return e
}

func hex4(s []byte) rune {
	v, _ := strconv.ParseUint(string(s[:4]), 16, 32)
	return rune(v) //nolint:gosec // G115: four hex digits are at most 0xFFFF
}

// canonNumber writes a valid JSON number as sign, significant digits and a decimal
// exponent. An exponent too large for int64 arithmetic keeps the literal itself as
// the key: such ids are matched by their text.
func canonNumber(raw []byte) string {
	s := string(raw)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, expText, _ := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	var exp int64
	if expText != "" {
		v, err := strconv.ParseInt(expText, 10, 64)
		if err != nil || v > 1<<60 || v < -(1<<60) {
			return "n~" + string(raw)
		}
		exp = v
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	if digits == "" {
		return "n0"
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	sign := ""
	if neg {
		sign = "-"
	}
	return "n" + sign + trimmed + "e" + strconv.FormatInt(exp, 10)
}

// responseID converts the id of a message the client sent as a reply to one of the
// server's own requests. The SDK numbers those itself, so only an integer literal in
// int64 range or a string can match one; anything else (1.5, 1e0, 2^63) would be
// coerced by the SDK into some other request's id and is dropped instead.
func responseID(raw []byte) bool {
	switch kindOf(raw) {
	case idString:
		return true
	case idNumber:
		_, err := strconv.ParseInt(string(raw), 10, 64)
		return err == nil
	}
	return false
}

// splice returns line with the bytes [start,end) replaced by with.
func splice(line []byte, start, end int, with []byte) []byte {
	out := make([]byte, 0, len(line)-(end-start)+len(with))
	out = append(out, line[:start]...)
	out = append(out, with...)
	return append(out, line[end:]...)
}
