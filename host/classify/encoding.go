package classify

import "strings"

// The base64 candidates beyond the plain runs of views.go (docs/safety/shell-classifier.md,
// "Normalisations", base64 payloads).

// decodeLimit is the most decoded text the classifier reads for an n-byte command.
// It is a safety net: the depth bound already keeps decoding linear (a level's text is
// at most 15/8 of the runs it came from, so three levels stay well under this), and
// each payload is decoded on its own, so no payload's share depends on what came
// before it.
func decodeLimit(n int) int { return 32*n + 4096 }

// spacedRuns calls f with the text of each quoted string in s ('…', "…" or the
// typographic quotes) made only of base64 characters and white space, with some white
// space, and at least minBase64 base64 characters: the white space removed, as .NET's
// base64 decoder (and so powershell -EncodedCommand) reads it. It stops when f returns
// true. One pass over s: a quote closing one string may open the next.
func spacedRuns(s string, f func(run string) bool) bool {
	for i := 0; i < len(s); {
		q := quoteAt(s, i)
		if q == 0 {
			i++
			continue
		}
		j := i + q
		k, n, blank := j, 0, false
		for ; k < len(s); k++ {
			c := s[k]
			if isBase64(c) || c == '=' {
				n++
			} else if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
				blank = true
			} else {
				break
			}
		}
		if blank && n >= minBase64 && quoteAt(s, k) > 0 && f(stripBlanks(s[j:k], n)) {
			return true
		}
		i = max(k, j)
	}
	return false
}

func stripBlanks(s string, n int) string {
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			b.WriteByte(c)
		}
	}
	return b.String()
}
