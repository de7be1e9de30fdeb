package routing

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestParseIntent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		task string
		want intent
	}{
		{"install git", intent{verb: "install", query: "git"}},
		{"Install Git for Windows", intent{verb: "install", query: "Git for Windows"}},
		{"please install the latest Python 3.12!", intent{verb: "install", query: "Python 3.12"}},
		{"can you install cmake for me", intent{verb: "install", query: "cmake"}},
		{"how do I install node.js on this machine?", intent{verb: "install", query: "node.js"}},
		{"go ahead and install the .NET SDK", intent{verb: "install", query: ".NET SDK"}},
		{"install nodejs with winget", intent{verb: "install", manager: "winget", query: "nodejs"}},
		{"install 7zip using Chocolatey", intent{verb: "install", manager: "chocolatey", query: "7zip"}},
		{"winget install --id Git.Git -e", intent{verb: "install", manager: "winget", query: "Git.Git"}},
		{"choco install ripgrep", intent{verb: "install", manager: "choco", query: "ripgrep"}},
		{"scoop install gh", intent{verb: "install", manager: "scoop", query: "gh"}},
		{"reinstall vscode", intent{verb: "reinstall", query: "vscode"}},
		{"npm install", intent{verb: "install", manager: "npm"}},
		{"pip install ruff", intent{verb: "install", manager: "pip", query: "ruff"}},
		{"run go install golang.org/x/tools/gopls@latest", intent{verb: "install", manager: "go", query: "golang.org/x/tools/gopls@latest"}},
		{"install the dependencies", intent{verb: "install", query: "dependencies", deps: true}},
		{"install the project's npm packages", intent{verb: "install", manager: "npm", query: "npm packages", deps: true}},
		{"install requirements.txt with pip", intent{verb: "install", manager: "pip", query: "requirements.txt", deps: true}},
		{"install", intent{verb: "install"}},
		{"install the", intent{verb: "install"}},
		{"uninstall git", intent{verb: "uninstall", query: "git"}},
		{"upgrade python", intent{verb: "upgrade", query: "python"}},
		{"install git and run the tests", intent{verb: "install", query: "git"}},
		// The verb is an object, not the task's operation.
		{"test the install script", intent{}},
		{"run the tests of the installer", intent{}},
		{"build install target", intent{}},
		{"", intent{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, parseIntent(tt.task), cmp.AllowUnexported(intent{})); diff != "" {
			t.Errorf("parseIntent(%q) (-want +got):\n%s", tt.task, diff)
		}
	}
}

func TestBoundQuery(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 40)
	if got := boundQuery(long); len(got) > maxQuery || !strings.HasPrefix(long, got) || strings.HasSuffix(got, " ") {
		t.Errorf("boundQuery cut %q", got)
	}
	one := strings.Repeat("é", 100) // 200 bytes, one word
	if got := boundQuery(one); len(got) > maxQuery || !utf8.ValidString(got) || got == "" {
		t.Errorf("boundQuery of one long word: %q", got)
	}
	if got := boundQuery("a\x00b\tc\u200bd\u00a0e"); got != "ab cd e" {
		t.Errorf("control characters kept: %q", got)
	}
}

// FuzzIntent checks what decideIntent and package_search rely on: a query is 1-160
// printable bytes without surrounding or doubled spaces, made of the task's own words;
// no verb means nothing else is set.
func FuzzIntent(f *testing.F) {
	for _, s := range []string{"install git", "winget install --id Git.Git -e", "please install the latest python for me",
		"npm install", "test the install script", "install " + strings.Repeat("x", 300), "install \x00\xff git"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, task string) {
		in := parseIntent(task)
		if in.verb == "" {
			if in != (intent{}) {
				t.Fatalf("no verb but %+v", in)
			}
			return
		}
		if !installVerbs[in.verb] {
			t.Fatalf("verb %q", in.verb)
		}
		if in.manager != "" && machineManagers[in.manager] == "" && !languageManagers[in.manager] {
			t.Fatalf("manager %q", in.manager)
		}
		q := in.query
		// package_search refuses a query that starts with '-' (it would read as an option).
		if len(q) > maxQuery || !utf8.ValidString(q) || q != strings.TrimSpace(q) || strings.Contains(q, "  ") || strings.HasPrefix(q, "-") {
			t.Fatalf("query %q", q)
		}
		for _, r := range q {
			if !unicode.IsPrint(r) && r != ' ' {
				t.Fatalf("unprintable %q in query %q", r, q)
			}
		}
		for _, w := range strings.Fields(q) {
			if !strings.Contains(strings.Map(func(r rune) rune {
				if unicode.IsPrint(r) {
					return r
				}
				return -1
			}, task), w[:1]) {
				t.Fatalf("query word %q is not from the task %q", w, task)
			}
		}
	})
}
