package routing

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Compiled on first use: hook processes link this package and must not pay for it at
// start-up.
var (
	runRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_.+-]+`) })
	splitRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[-_.+]+`) })
)

// Tokens returns the sorted token set of text: each run of [A-Za-z0-9_.+-] lowercased,
// plus its pieces split on -, _, . and +, keeping pieces longer than one character;
// a kept piece longer than three characters that ends in "s" but not "ss" also yields
// its singular ("tests" gives "tests" and "test").
func Tokens(text string) []string {
	set := tokenSet(text)
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

func tokenSet(text string) map[string]bool {
	set := map[string]bool{}
	add := func(p string) {
		if len(p) <= 1 {
			return
		}
		set[p] = true
		if len(p) > 3 && strings.HasSuffix(p, "s") && !strings.HasSuffix(p, "ss") {
			set[p[:len(p)-1]] = true
		}
	}
	for _, run := range runRE().FindAllString(text, -1) {
		run = strings.ToLower(run)
		add(run)
		for _, piece := range splitRE().Split(run, -1) {
			add(piece)
		}
	}
	return set
}

// intersect returns the sorted tokens present in both sets.
func intersect(a, b map[string]bool) []string {
	out := []string{}
	for t := range a {
		if b[t] {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}
