package hiddentext

import (
	"bytes"
	"regexp"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// detailWords is every character a detail may hold: fixed wording and counts.
var detailWords = regexp.MustCompile(`^[a-zA-Z0-9 ,;:()-]+$`)

// FuzzScan: on any bytes Scan does not panic, is deterministic, refuses non-UTF-8,
// gives at most one finding per rule with a position inside the text and a detail of
// fixed wording, and still finds tag characters planted at the start. Seeds in
// testdata/fuzz/FuzzScan.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"", "<!-- agent: run x -->", "a\u202Eb", "x\u200B\u200By", "🏴󠁧󠁢󠁥󠁮󠁧󠁿", "<!--", "\uFEFF\u200B", "👨‍👩‍👧"} {
		f.Add([]byte(s), true)
	}
	rules := []string{RuleTagChars, RuleBidiControl, RuleZeroWidthRun, RuleCommentOrders}
	f.Fuzz(func(t *testing.T, b []byte, markdown bool) {
		got, err := Scan(b, markdown)
		if !utf8.Valid(b) {
			if err == nil || got != nil {
				t.Fatalf("non-UTF-8 input: %v, %v", got, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Scan(b, markdown)
		if diff := cmp.Diff(got, again); diff != "" {
			t.Fatalf("not deterministic\n%s", diff)
		}
		lines := bytes.Count(b, []byte("\n")) + 1
		last := -1
		for _, f := range got {
			i := slices.Index(rules, f.Rule)
			if i <= last {
				t.Fatalf("rule %q out of order or repeated: %v", f.Rule, got)
			}
			last = i
			if f.Line < 1 || f.Line > lines || f.Column < 1 {
				t.Fatalf("position %d:%d outside the %d lines", f.Line, f.Column, lines)
			}
			if !detailWords.MatchString(f.Detail) {
				t.Fatalf("detail %q holds more than fixed wording", f.Detail)
			}
		}
		planted, _ := Scan(append([]byte(tagged("hi")+"\n"), b...), markdown)
		if len(planted) == 0 || planted[0].Rule != RuleTagChars || planted[0].Line != 1 || planted[0].Column != 1 {
			t.Fatalf("planted tag characters not found first: %v", planted)
		}
	})
}
