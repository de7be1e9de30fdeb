package routing_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

var (
	tokenRE = regexp.MustCompile(`^[a-z0-9_.+-]{2,}$`)
	runRE   = regexp.MustCompile(`[A-Za-z0-9_.+-]+#?`)
	splitRE = regexp.MustCompile(`[-_.+]+`)
)

// refTokens is the tokenizer's rule written with regular expressions; the
// hand-written scanner of Tokens must agree with it on every input.
func refTokens(text string) []string {
	set := map[string]bool{}
	add := func(p string) {
		if len(p) > 1 {
			set[p] = true
			if len(p) > 3 && strings.HasSuffix(p, "s") && !strings.HasSuffix(p, "ss") {
				set[p[:len(p)-1]] = true
			}
		}
	}
	for _, run := range runRE.FindAllString(text, -1) {
		run = strings.ToLower(run)
		if base, ok := strings.CutSuffix(run, "#"); ok {
			switch base {
			case "c":
				set["csharp"] = true
			case "f":
				set["fsharp"] = true
			}
			run = base
		}
		if strings.HasSuffix(strings.TrimRight(run, "."), ".net") {
			set["dotnet"] = true
		}
		add(run)
		for _, p := range splitRE.Split(run, -1) {
			add(p)
		}
	}
	out := []string{}
	for t := range set {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// FuzzTokens checks the tokenizer's output invariants: sorted, distinct, lowercase
// runs of the allowed alphabet, longer than one character, and closed under the
// plural rule.
func FuzzTokens(f *testing.F) {
	f.Add("run the Python tests")
	f.Add("Unit-Tests; dotnet.tests+x ÜBER")
	f.Add("C# F#, x# ##c#, the .NET. ASP.NET\xff\xfe#")
	f.Fuzz(func(t *testing.T, s string) {
		toks := routing.Tokens(s)
		if diff := cmp.Diff(refTokens(s), toks); diff != "" {
			t.Fatalf("Tokens(%q) differs from the rule (-rule +scanner):\n%s", s, diff)
		}
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
