package routing

import (
	"slices"
	"strings"
)

// Tokens returns the sorted token set of text: each run of [A-Za-z0-9_.+-] lowercased,
// plus its pieces split on -, _, . and +, keeping pieces longer than one character;
// a kept piece longer than three characters that ends in "s" but not "ss" also yields
// its singular ("tests" gives "tests" and "test"). Three spellings the alphabet cannot
// carry become words: "C#" gives "csharp", "F#" gives "fsharp", and a run ending in
// ".NET" (".NET", "ASP.NET") gives "dotnet".
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
	// A hand-written scanner rather than a regexp: it is most of a plan's cost, and the
	// alphabet is ASCII, so bytes of multi-byte characters never join a run.
	for i := 0; i < len(text); {
		if !runByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && runByte(text[j]) {
			j++
		}
		if j < len(text) && text[j] == '#' {
			j++
		}
		run := strings.ToLower(text[i:j])
		i = j
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
		for _, piece := range strings.FieldsFunc(run, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '+' }) {
			add(piece)
		}
	}
	return set
}

// runByte is the alphabet of a run: [A-Za-z0-9_.+-].
func runByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '+' || c == '-'
}

// stopWords are English function words and the words every development task uses for
// its object (code, repo, files, suite): they never count as description evidence.
var stopWords = map[string]bool{"app": true, "application": true, "code": true, "codebase": true, "file": true,
	"files": true, "repo": true, "repository": true, "source": true, "sources": true, "suite": true,
	"about": true, "all": true, "an": true, "and": true, "any": true, "are": true,
	"as": true, "at": true, "be": true, "by": true, "can": true, "do": true, "each": true, "every": true, "for": true,
	"from": true, "in": true, "into": true, "is": true, "it": true, "its": true, "me": true, "my": true, "of": true,
	"on": true, "or": true, "our": true, "please": true, "the": true, "their": true, "them": true, "then": true,
	"this": true, "that": true, "to": true, "us": true, "use": true, "using": true, "we": true, "what": true,
	"with": true, "without": true, "you": true, "your": true}

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

// withoutIdioms drops the English uses of "go" that would otherwise read as the Go
// language: "go ahead and run the tests", "let's go".
func withoutIdioms(text string) string {
	words := strings.Fields(text)
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		n := norm(words[i])
		switch {
		case n == "go" && i+1 < len(words) && norm(words[i+1]) == "ahead":
			i++
			continue
		case n == "go" && i > 0 && (norm(words[i-1]) == "let's" || norm(words[i-1]) == "lets"):
			continue
		}
		out = append(out, words[i])
	}
	return strings.Join(out, " ")
}
