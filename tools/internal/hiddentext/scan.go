package hiddentext

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Finding is one kind of hidden text in one file: where its first occurrence is and how
// much there is (docs/tools/ecosystem_scan.md, "Hidden text"). Detail comes from fixed
// wording and counts, never from the file.
type Finding struct {
	Rule     string `json:"rule" jsonschema:"required"`
	Severity string `json:"severity" jsonschema:"required"`
	File     string `json:"file" jsonschema:"required"`
	Line     int    `json:"line" jsonschema:"required"`
	Column   int    `json:"column" jsonschema:"required"`
	Detail   string `json:"detail" jsonschema:"required"`
}

// Rule ids; stable, callers match on them.
const (
	RuleTagChars       = "hidden_tag_characters"
	RuleBidiControl    = "bidi_control"
	RuleZeroWidthRun   = "zero_width_run"
	RuleCommentOrders  = "hidden_comment_instruction"
	SeverityHigh       = "high"
	SeverityMedium     = "medium"
	cancelTag          = 0xE007F
	blackFlag          = 0x1F3F4
	maxFlagTagSequence = 8
)

// ErrNotText: the bytes are not UTF-8, so nothing was checked.
var ErrNotText = errors.New("not UTF-8 text")

// pos is a 1-based line and column (columns count characters, not bytes).
type pos struct{ line, col int }

// tally is one rule's occurrences in a file.
type tally struct {
	first  pos
	chars  int // characters involved (or comments, for RuleCommentOrders)
	runs   int
	high   bool
	reason []string
}

func (t *tally) add(at pos, chars int) {
	if t.runs == 0 {
		t.first = at
	}
	t.runs++
	t.chars += chars
}

// Scan checks text. markdown says whether HTML comments are looked at. The findings
// are in a fixed rule order, at most one per rule; a file that is not UTF-8 gives
// ErrNotText and no findings.
func Scan(b []byte, markdown bool) ([]Finding, error) {
	if !utf8.Valid(b) {
		return nil, ErrNotText
	}
	var tags, bidi, zw, comments tally
	at := pos{1, 1}
	var prev rune
	commentEnd := 0 // a comment opener inside a comment opens nothing
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case isTag(r):
			j, count, p := i, 0, at
			for j < len(b) {
				r2, n2 := utf8.DecodeRune(b[j:])
				if !isTag(r2) {
					break
				}
				j += n2
				count++
			}
			if prev != blackFlag || !flagSequence(b[i:j]) {
				tags.add(p, count)
			}
			at.col += count
			i = j
			prev = cancelTag
			continue
		case isBidi(r):
			bidi.add(at, 1)
			bidi.high = bidi.high || r != 0x200E && r != 0x200F && r != 0x061C
		case isZeroWidth(r) || isSelector(r):
			j, z, vs, p := i, 0, 0, at
			for j < len(b) {
				r2, n2 := utf8.DecodeRune(b[j:])
				switch {
				case r2 == 0xFEFF && j > 0:
					z += 2 // a byte order mark after the start is never a text character
				case isZeroWidth(r2):
					z++
				case isSelector(r2):
					vs++
				default:
					n2 = 0
				}
				if n2 == 0 {
					break
				}
				j += n2
			}
			count := utf8.RuneCount(b[i:j])
			if z >= 2 || vs >= 2 {
				zw.add(p, count)
			}
			at.col += count
			i = j
			prev = 0xFEFF
			continue
		case r == '\n':
			at = pos{at.line + 1, 0}
		case markdown && r == '<' && i >= commentEnd && bytes.HasPrefix(b[i:], []byte("<!--")):
			// An unclosed comment hides the rest of the file.
			body := b[i+4:]
			if end := bytes.Index(body, []byte("-->")); end >= 0 {
				body = body[:end]
			}
			commentEnd = i + 4 + len(body)
			if sev, why := orders(string(body)); why != "" {
				comments.add(at, 1)
				comments.high = comments.high || sev == SeverityHigh
				if !contains(comments.reason, why) {
					comments.reason = append(comments.reason, why)
				}
			}
			// The comment's own characters are still checked for hidden ones, so the
			// walk goes on inside it.
		}
		at.col++
		prev = r
		i += n
	}
	var out []Finding
	if tags.runs > 0 {
		out = append(out, finding(RuleTagChars, SeverityHigh, tags.first,
			fmt.Sprintf("%s in %s (invisible; they can spell out text a model reads)", count(tags.chars, "tag character"), count(tags.runs, "run"))))
	}
	if bidi.runs > 0 {
		sev, what := SeverityMedium, "direction marks (LRM, RLM or ALM)"
		if bidi.high {
			sev, what = SeverityHigh, "embedding, override or isolate controls"
		}
		out = append(out, finding(RuleBidiControl, sev, bidi.first,
			fmt.Sprintf("%s, %s: the text shown can differ from the order a model reads", count(bidi.chars, "bidirectional control"), what)))
	}
	if zw.runs > 0 {
		out = append(out, finding(RuleZeroWidthRun, SeverityMedium, zw.first,
			fmt.Sprintf("%s in %s (zero-width characters, variation selectors or a byte order mark inside the text)", count(zw.chars, "invisible character"), count(zw.runs, "run"))))
	}
	if comments.runs > 0 {
		sev := SeverityMedium
		if comments.high {
			sev = SeverityHigh
		}
		out = append(out, finding(RuleCommentOrders, sev, comments.first,
			fmt.Sprintf("%s hidden from the rendered page: %s", count(comments.runs, "HTML comment"), strings.Join(comments.reason, "; "))))
	}
	return out, nil
}

func finding(rule, sev string, at pos, detail string) Finding {
	return Finding{Rule: rule, Severity: sev, Line: at.line, Column: at.col, Detail: detail}
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isTag: the Tags block, U+E0000-U+E007F.
func isTag(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

// isBidi: embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069), and the
// marks LRM, RLM and ALM.
func isBidi(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// isZeroWidth: ZWSP, ZWNJ, ZWJ, the word joiner and invisible operators
// (U+2060-U+2064), the Mongolian vowel separator and the byte order mark.
func isZeroWidth(r rune) bool {
	return r >= 0x200B && r <= 0x200D || r >= 0x2060 && r <= 0x2064 || r == 0x180E || r == 0xFEFF
}

// isSelector: variation selectors VS1-VS16 and VS17-VS256.
func isSelector(r rune) bool { return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF }

// flagSequence: the tag run of an emoji subdivision flag (U+1F3F4, then lower-case tag
// letters or digits, then CANCEL TAG), e.g. the flag of England.
func flagSequence(run []byte) bool {
	n := 0
	for len(run) > 0 {
		r, size := utf8.DecodeRune(run)
		run = run[size:]
		n++
		switch {
		case r == cancelTag:
			return len(run) == 0 && n > 1 && n <= maxFlagTagSequence
		case r >= 0xE0061 && r <= 0xE007A, r >= 0xE0030 && r <= 0xE0039:
		default:
			return false
		}
	}
	return false
}
