package audit

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// sessionLines calls fn, in order, with every line of data that eachLine would yield
// and that may hold session_id == sessionID; the caller decodes those lines and
// compares exactly. It never skips a line that would match (docs/audit.md, "The Stop
// summary"):
//
//   - A decoded string is always valid UTF-8, so an invalid sessionID matches nothing.
//   - Invalid UTF-8 in a line decodes to U+FFFD, so for a sessionID containing U+FFFD
//     raw bytes other than its own could match: every line is a candidate.
//   - Any line with a backslash may spell the value (or the key) with escapes: a
//     candidate.
//   - Without a backslash, a JSON string is its raw bytes between quotes, so a
//     backslash-free line that decodes to the value sessionID contains `"sessionID"`.
//     A value with bytes JSON must escape (a quote, a backslash, a control character)
//     cannot appear without a backslash at all, so for such a sessionID only lines
//     with a backslash are candidates.
//
// Rather than testing line by line, it searches the whole segment for the next quoted
// session id and the next backslash and visits only the lines those land in: the
// search runs at memory speed, and a session that owns few of the lines costs little
// more than reading the file.
func sessionLines(data []byte, sessionID string, fn func(line []byte)) {
	switch {
	case !utf8.ValidString(sessionID):
		return
	case strings.ContainsRune(sessionID, utf8.RuneError):
		eachLine(data, fn)
		return
	}
	// The needle is the session id and its closing quote; the opening quote is checked
	// at each hit. Searching from the quote would be three times slower: a quote starts
	// every few bytes of JSON, and bytes.Index stops at each occurrence of its first byte.
	var needle []byte
	if !strings.ContainsFunc(sessionID, func(r rune) bool { return r == '"' || r == '\\' || r < 0x20 }) {
		needle = []byte(sessionID + `"`)
	}
	quoted := func(b []byte) int {
		for off := 0; ; {
			i := bytes.Index(b[off:], needle)
			if i < 0 {
				return -1
			}
			if at := off + i; at > 0 && b[at-1] == '"' {
				return at
			}
			off += i + 1
		}
	}
	// Next occurrence at or after pos of the quoted session id and of a backslash (-1:
	// none left); each is searched again only once pos has passed it.
	nextNeedle, nextSlash := -2, -2
	find := func(cached, pos int, search func([]byte) int) int {
		if cached == -1 || cached >= pos {
			return cached
		}
		if i := search(data[pos:]); i >= 0 {
			return pos + i
		}
		return -1
	}
	for pos := 0; pos < len(data); {
		if needle != nil {
			nextNeedle = find(nextNeedle, pos, quoted)
		} else {
			nextNeedle = -1
		}
		nextSlash = find(nextSlash, pos, func(b []byte) int { return bytes.IndexByte(b, '\\') })
		hit := nextNeedle
		if hit < 0 || (nextSlash >= 0 && nextSlash < hit) {
			hit = nextSlash
		}
		if hit < 0 {
			return
		}
		start := pos + bytes.LastIndexByte(data[pos:hit], '\n') + 1
		end := len(data)
		if i := bytes.IndexByte(data[hit:], '\n'); i >= 0 {
			end = hit + i
		}
		eachLine(data[start:end], fn)
		pos = end + 1
	}
}
