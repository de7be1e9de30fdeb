package routing_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

var tokenRE = regexp.MustCompile(`^[a-z0-9_.+-]{2,}$`)

// FuzzTokens checks the tokenizer's output invariants: sorted, distinct, lowercase
// runs of the allowed alphabet, longer than one character, and closed under the
// plural rule.
func FuzzTokens(f *testing.F) {
	f.Add("run the Python tests")
	f.Add("Unit-Tests; dotnet.tests+x ÜBER")
	f.Fuzz(func(t *testing.T, s string) {
		toks := routing.Tokens(s)
		if !slices.IsSorted(toks) || len(slices.Compact(slices.Clone(toks))) != len(toks) {
			t.Fatalf("not sorted and distinct: %q", toks)
		}
		for _, tok := range toks {
			if !tokenRE.MatchString(tok) {
				t.Fatalf("bad token %q from %q", tok, s)
			}
			if len(tok) > 3 && tok[len(tok)-1] == 's' && tok[len(tok)-2] != 's' {
				if _, ok := slices.BinarySearch(toks, tok[:len(tok)-1]); !ok {
					t.Fatalf("%q without its singular in %q", tok, toks)
				}
			}
		}
	})
}
