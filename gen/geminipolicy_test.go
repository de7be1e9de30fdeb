package gen

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

// stableStringify is Gemini CLI's serialisation of a call's arguments for argsPattern:
// keys sorted, compact values, every top-level "key":value pair wrapped in NUL.
func stableStringify(t *testing.T, args map[string]any) string {
	t.Helper()
	ks := make([]string, 0, len(args))
	for k := range args {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	var pairs []string
	for _, k := range ks {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]any{k: args[k]}); err != nil {
			t.Fatal(err)
		}
		pair := strings.TrimSuffix(strings.TrimSpace(b.String()), "}")[1:]
		pairs = append(pairs, "\x00"+pair+"\x00")
	}
	return "{" + strings.Join(pairs, ",") + "}"
}

// matchJS tests a JavaScript pattern with at most one negative lookahead (?!X), the
// only construct of the policy patterns that RE2 lacks: P(?!X)S matches when some
// match of P ends where X does not match and S does.
func matchJS(t *testing.T, pattern, s string) bool {
	t.Helper()
	i := strings.Index(pattern, "(?!")
	if i < 0 {
		return regexp.MustCompile(pattern).MatchString(s)
	}
	depth, j := 0, i
	for ; j < len(pattern); j++ {
		switch pattern[j] {
		case '\\':
			j++
		case '(':
			depth++
		case ')':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	p := regexp.MustCompile(`(?:` + pattern[:i] + `)$`)
	x := regexp.MustCompile(`^(?:` + pattern[i+3:j] + `)`)
	rest := regexp.MustCompile(`^(?:` + pattern[j+1:] + `)`)
	for k := 0; k <= len(s); k++ {
		if p.MatchString(s[:k]) && !x.MatchString(s[k:]) && rest.MatchString(s[k:]) {
			return true
		}
	}
	return false
}

// TestGeminiPolicyIsTheClassification: for a spread of calls, the policy decides
// exactly what the Claude gate decides from the tool's own classification: deny for
// forbidden, ask for approval-required and checkpoint, nothing otherwise.
func TestGeminiPolicyIsTheClassification(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.Default()
	rules := geminiRules(reg, cat)
	// Gemini's isSafeRegExp refuses nested quantifiers and patterns over 2048 bytes.
	nested := regexp.MustCompile(`\([^)]*[*+?{].*\)[*+?{]`)
	for _, r := range rules {
		if nested.MatchString(r.argsPattern) || len(r.argsPattern) > 2048 {
			t.Errorf("Gemini would refuse the pattern %q", r.argsPattern)
		}
		if r.decision != "ask_user" && r.decision != "deny" {
			t.Errorf("rule %+v: only ask_user and deny may be rendered", r)
		}
	}
	argsList := []map[string]any{{}, {"execute": true}, {"execute": false}, {"execute": "true"}, {"include_host": true},
		{"include_host": false}, {"config_path": "x"}, {"config_path": "  "}, {"config_path": nil}, {"config_path": 3},
		{"capability": "test-go", "execute": true}, {"capability": "test-go", "execute": false},
		{"capability": "create-pr", "execute": true}, {"capability": "create-pr"}, {"capability": "nope", "execute": true},
		{"capability": "test-go2", "execute": true}, {"capability": "test-go", "execute": true, "extra_args": []any{"-v"}},
		{"capability": "test-go", "execute": true, "extra_args": []any{}}, {"capability": "test-go", "execute": true, "cwd": "/p", "expected_executable": "/x"},
		{"capability": "create-pr", "execute": true, "cwd": "/p", "task": "execute:true"}, {"package_id": "Git.Git", "execute": true, "source": "winget"},
		{"task": `"execute":true`}, {"capability": "create-pr", "cwd": "/p\u2028q\u2029", "execute": true}, {"backend": "wsl", "command": []any{"x"}, "execute": true, "workspace_folder": "/p"},
	}
	for _, tl := range reg.Tools() {
		for _, args := range argsList {
			want := geminiDecision(tl.Classify(tools.Args(args)))
			s := stableStringify(t, args)
			got, priority := "", 0
			for _, r := range rules {
				if r.tool != tl.Name() || (r.argsPattern != "" && !matchJS(t, r.argsPattern, s)) {
					continue
				}
				p := geminiAskPriority
				if r.decision == "deny" {
					p = geminiDenyPriority
				}
				if p > priority {
					got, priority = r.decision, p
				}
			}
			if got != want {
				t.Errorf("%s %v (%q): policy decides %q, the classification %q", tl.Name(), args, s, got, want)
			}
		}
	}
}

// A forbidden capability in the catalog becomes a deny rule that outranks the question.
func TestGeminiPolicyDeniesForbiddenCapabilities(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load([]byte(`
wipe: {description: d, safety: forbidden, tools: [{name: x, argv: [x]}]}
lint: {description: d, safety: read-only, tools: [{name: x, argv: [x]}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	rules := geminiRules(tools.Default(), cat)
	s := stableStringify(t, map[string]any{"capability": "wipe", "execute": true})
	var decisions []string
	for _, r := range rules {
		if r.tool == "capability_run" && matchJS(t, r.argsPattern, s) {
			decisions = append(decisions, r.decision)
		}
	}
	if !slices.Contains(decisions, "deny") {
		t.Fatalf("forbidden capability not denied: %v", decisions)
	}
	s = stableStringify(t, map[string]any{"capability": "wipe"})
	for _, r := range rules {
		if r.tool == "capability_run" && matchJS(t, r.argsPattern, s) {
			t.Fatalf("planning a forbidden capability matched %+v", r)
		}
	}
}
