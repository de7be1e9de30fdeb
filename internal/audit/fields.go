package audit

import (
	"encoding/binary"
	"slices"
	"strconv"
	"unicode/utf8"
)

// maxSegments is how many segments a snapshot holds: agent.log.1 and agent.log.
const maxSegments = 2

// SessionSummary is Summarize(ReadSession(dataDir, sessionID)) for the Stop hooks, with
// the number of records summarised (0: the session has none). It reads the same lines
// and keeps the same records, but a record becomes only the facts the summary reads
// (fact): records are flat objects of strings, numbers, booleans and nulls (Append
// writes nothing else), which a scanner reads without building a map of every member;
// any other line goes through the full decoder. The answer is the same either way
// (TestSessionSummaryMatchesSummarize, FuzzScanFact). A session that filled the log has
// about 13,600 records to summarise.
func SessionSummary(dataDir, sessionID string) (Summary, int, error) {
	if sessionID == "" {
		return Summary{}, 0, nil
	}
	// The two segments are read and scanned at the same time: a session that filled
	// the log has thousands of records in each, and a Stop hook's wall time is what
	// the user waits for.
	var per [maxSegments][]fact
	err := eachRetained(dataDir, openRead, func(i int, next func() ([]byte, error)) {
		var facts []fact
		seen := words{}
		for {
			piece, err := next()
			if err != nil {
				return // a segment that cannot be read is skipped, as Read skips it
			}
			if piece == nil {
				break
			}
			sessionLines(piece, sessionID, func(line []byte) {
				if f, ok := lineFact(line, seen); ok && f.session == sessionID {
					facts = append(facts, f)
				}
			})
		}
		per[i] = facts
	})
	if err != nil {
		return Summary{}, 0, err
	}
	facts := slices.Concat(per[:]...)
	if len(facts) == 0 {
		return Summary{}, 0, nil
	}
	return summarize(facts), len(facts), nil
}

// lineFact is factOf(decodeLine(line)); false when the line is not a record. seen
// interns the values that repeat (nil: none).
func lineFact(line []byte, seen words) (fact, bool) {
	if f, ok := scanFact(line, seen); ok {
		return f, true
	}
	full := decodeLine(line)
	if full == nil {
		return fact{}, false
	}
	return factOf(full), true
}

// words interns the string values that repeat from record to record (event names,
// outcomes, tool names, the session id), so each is one string however many records
// hold it; nil interns nothing.
type words map[string]string

func (w words) str(b []byte) string {
	if w == nil {
		return string(b)
	}
	if v, ok := w[string(b)]; ok {
		return v
	}
	v := string(b)
	if len(w) < maxWords {
		w[v] = v
	}
	return v
}

// maxWords bounds a reader's interned strings.
const maxWords = 256

// A JSON value the scanner read, by kind.
const (
	vString = iota
	vNumber
	vTrue
	vFalse
	vNull
)

// scanFact reads line as one flat JSON object whose keys have no escapes and whose
// values are strings without escapes or control characters, numbers, true, false or
// null, into the facts the summary reads. ok is false for anything else — nesting,
// escapes, invalid UTF-8, a number a float64 cannot hold, bad syntax — and the caller
// decodes the line in full instead, so the answer never differs from the decoder's.
// A member given twice counts as the decoder counts it: the last one.
func scanFact(line []byte, seen words) (f fact, ok bool) {
	s := scanner{b: line}
	s.space()
	if !s.byte('{') {
		return fact{}, false
	}
	s.space()
	if s.byte('}') {
		return f, s.end()
	}
	for {
		s.space()
		key, ok := s.plainString()
		if !ok {
			return fact{}, false
		}
		s.space()
		if !s.byte(':') {
			return fact{}, false
		}
		s.space()
		kind, str, ok := s.value()
		if !ok {
			return fact{}, false
		}
		text := func(intern bool) string {
			switch {
			case kind != vString:
				return ""
			case intern:
				return seen.str(str)
			}
			return string(str)
		}
		switch string(key) {
		case "event":
			f.event = text(true)
		case "lifecycle_event":
			f.lifecycleEvent = text(true)
		case "tool_name":
			f.tool = text(true)
		case "execution_outcome":
			f.hasOutcome, f.outcome = true, text(true)
		case "session_id":
			f.session = text(true)
		case "tool_use_id":
			f.useID = text(false) // a call's own: interning it would only fill the table
		case "success":
			f.successFalse = kind == vFalse
		case "execution_started":
			f.started = kind == vTrue
		case "permission_denied":
			f.denied = kind == vTrue
		}
		s.space()
		if s.byte('}') {
			return f, s.end()
		}
		if !s.byte(',') {
			return fact{}, false
		}
	}
}

type scanner struct {
	b []byte
	i int
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
		// Most of a log's bytes are in long plain ASCII strings (commands, paths,
		// messages): skip eight of those bytes at a time; a word that may hold a byte
		// of interest goes through the byte test below.
		for s.i+8 <= len(s.b) && !mayStop(binary.LittleEndian.Uint64(s.b[s.i:])) {
			s.i += 8
		}
		if s.i >= len(s.b) {
			break
		}
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

// Eight bytes in one word, for mayStop.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// mayStop reports whether the eight bytes of w may hold a quote, a backslash, a
// control character or a byte of a multi-byte UTF-8 sequence: the bytes that end or
// qualify a plain string. It never misses one (a byte below 0x20 has its top bit set
// after the subtraction; a byte equal to '"' or '\\' is zero after the xor, and the
// same test finds zeros); a false alarm only sends the word to the byte-by-byte test.
func mayStop(w uint64) bool {
	lt := func(x, n uint64) uint64 { return (x - ones*n) &^ x & highs } // a byte of x below n
	return (w&highs | lt(w, 0x20) | lt(w^(ones*'"'), 1) | lt(w^(ones*'\\'), 1)) != 0
}

// value reads a string, number, true, false or null: its kind, and a string's bytes.
func (s *scanner) value() (kind int, str []byte, ok bool) {
	if s.i >= len(s.b) {
		return 0, nil, false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		str, ok := s.plainString()
		return vString, str, ok
	case c == 't':
		return vTrue, nil, s.word("true")
	case c == 'f':
		return vFalse, nil, s.word("false")
	case c == 'n':
		return vNull, nil, s.word("null")
	case c == '-' || '0' <= c && c <= '9':
		return vNumber, nil, s.number()
	}
	return 0, nil, false
}

func (s *scanner) word(w string) bool {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return true
	}
	return false
}

// number reads a JSON number (RFC 8259 grammar) that a float64 holds, as the decoder
// requires of every number in a record it keeps.
func (s *scanner) number() bool {
	start := s.i
	s.byte('-')
	if !s.byte('0') && !s.digits() {
		return false
	}
	if s.byte('.') && !s.digits() {
		return false
	}
	if s.byte('e') || s.byte('E') {
		if !s.byte('+') {
			s.byte('-')
		}
		if !s.digits() {
			return false
		}
	}
	_, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	return err == nil
}

// digits reads one or more decimal digits.
func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
