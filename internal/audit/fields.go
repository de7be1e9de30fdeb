package audit

import (
	"strconv"
	"unicode/utf8"
)

// summaryKeys are the record members Summarize reads (summary.go); the Stop hooks need
// nothing else.
var summaryKeys = [...]string{"event", "lifecycle_event", "tool_name", "execution_outcome", "success",
	"execution_started", "permission_denied", "session_id", "tool_use_id"}

// ReadSessionSummary is ReadSession for Summarize: the same records, each holding only
// the members Summarize reads. Records are flat objects of strings, numbers, booleans
// and nulls (Append writes nothing else), which a scanner reads without building a map
// of every member; any other line goes through the full decoder. The result is what
// ReadSession's records cut to those members would be (TestSummaryLineMatchesDecode,
// FuzzSummaryLine). It is the Stop hooks' reader: a session that filled the log has
// about 20,000 records to summarise.
func ReadSessionSummary(dataDir, sessionID string) ([]map[string]any, error) {
	if sessionID == "" {
		return nil, nil
	}
	segs, err := readRetained(dataDir, openRead)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	seen := words{}
	for _, data := range segs {
		sessionLines(data, sessionID, func(line []byte) {
			if m := summaryLine(line, seen); m != nil {
				if s, ok := m["session_id"].(string); ok && s == sessionID {
					out = append(out, m)
				}
			}
		})
	}
	return out, nil
}

// words interns the string values that repeat from record to record (event names,
// outcomes, tool names, the session id), so each is one string however many records
// hold it; nil interns nothing.
type words map[string]any

func (w words) value(b []byte) any {
	if w == nil {
		return string(b)
	}
	if v, ok := w[string(b)]; ok {
		return v
	}
	v := any(string(b))
	if len(w) < maxWords {
		w[string(b)] = v
	}
	return v
}

// maxWords bounds a reader's interned strings.
const maxWords = 256

// summaryLine is decodeLine cut to summaryKeys: nil when the line is not a record.
// seen interns repeating values (nil: none).
func summaryLine(line []byte, seen words) map[string]any {
	if m, ok := scanFlat(line, seen); ok {
		return m
	}
	full := decodeLine(line)
	if full == nil {
		return nil
	}
	m := make(map[string]any, len(summaryKeys))
	for _, k := range summaryKeys {
		if v, ok := full[k]; ok {
			m[k] = v
		}
	}
	return m
}

// scanFlat reads line as one flat JSON object whose keys have no escapes and whose
// values are strings without escapes or control characters, numbers, true, false or
// null, keeping the members named in summaryKeys. ok is false for anything else —
// nesting, escapes, invalid UTF-8, a number a float64 cannot hold, bad syntax — and the
// caller decodes the line in full instead, so the answer never differs from the
// decoder's.
func scanFlat(line []byte, seen words) (m map[string]any, ok bool) {
	s := scanner{b: line, seen: seen}
	s.space()
	if !s.byte('{') {
		return nil, false
	}
	m = make(map[string]any, len(summaryKeys))
	s.space()
	if s.byte('}') {
		return m, s.end()
	}
	for {
		s.space()
		key, ok := s.plainString()
		if !ok {
			return nil, false
		}
		s.space()
		if !s.byte(':') {
			return nil, false
		}
		s.space()
		want := ""
		for _, k := range summaryKeys {
			if string(key) == k {
				want = k
				break
			}
		}
		// A call's tool_use_id is its own: interning it would only fill the table.
		v, ok := s.value(want != "", want != "tool_use_id")
		if !ok {
			return nil, false
		}
		if want != "" {
			m[want] = v
		}
		s.space()
		if s.byte('}') {
			return m, s.end()
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

type scanner struct {
	b    []byte
	i    int
	seen words
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

// plainString reads a string with no escapes and no control characters, in valid
// UTF-8, and returns its bytes.
func (s *scanner) plainString() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	ascii := true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			str := s.b[start:s.i]
			s.i++
			if !ascii && !utf8.Valid(str) {
				return nil, false
			}
			return str, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
		s.i++
	}
	return nil, false
}

// value reads a string, number, true, false or null; a string becomes a Go string only
// when keep is set (the others are checked and skipped), interned when intern is.
func (s *scanner) value(keep, intern bool) (any, bool) {
	if s.i >= len(s.b) {
		return nil, false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		str, ok := s.plainString()
		if !ok || !keep {
			return nil, ok
		}
		if intern {
			return s.seen.value(str), true
		}
		return string(str), true
	case c == 't':
		return true, s.word("true")
	case c == 'f':
		return false, s.word("false")
	case c == 'n':
		return nil, s.word("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return nil, false
}

func (s *scanner) word(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// number reads a JSON number (RFC 8259 grammar) that a float64 holds.
func (s *scanner) number() (any, bool) {
	start := s.i
	s.byte('-')
	if s.byte('0') {
		// no further integer digits after a leading zero
	} else if !s.digits() {
		return nil, false
	}
	if s.byte('.') && !s.digits() {
		return nil, false
	}
	if s.byte('e') || s.byte('E') {
		if !s.byte('+') {
			s.byte('-')
		}
		if !s.digits() {
			return nil, false
		}
	}
	f, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

// digits reads one or more decimal digits.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
