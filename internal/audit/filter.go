package audit

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// sessionFilter returns a cheap test that a record line may hold session_id ==
// sessionID; the caller decodes the lines it keeps and compares exactly. It never
// rejects a line that would match (docs/audit.md, "The Stop summary"):
//
//   - A decoded string is always valid UTF-8, so an invalid sessionID matches nothing.
//   - Without a backslash, a JSON string is its raw bytes between quotes, so a
//     backslash-free line that decodes to the value sessionID contains `"sessionID"`.
//     That fails only for a value with bytes JSON must escape (a quote, a backslash, a
//     control character), which cannot appear without a backslash anyway.
//   - Invalid UTF-8 in a line decodes to U+FFFD, so for a sessionID containing U+FFFD
//     raw bytes other than its own could match: every line is kept.
//   - Any line with a backslash may spell the value (or the key) with escapes: kept.
func sessionFilter(sessionID string) func(line []byte) bool {
	switch {
	case !utf8.ValidString(sessionID):
		return func([]byte) bool { return false }
	case strings.ContainsRune(sessionID, utf8.RuneError):
		return func([]byte) bool { return true }
	}
	needle := []byte(`"` + sessionID + `"`)
	return func(line []byte) bool {
		return bytes.IndexByte(line, '\\') >= 0 || bytes.Contains(line, needle)
	}
}
