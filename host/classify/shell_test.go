package classify

import (
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/windows-dev-agent/wda/tools"
)

const (
	ro  = tools.ReadOnly
	rev = tools.Reversible
	ap  = tools.ApprovalRequired
	fb  = tools.Forbidden
)

// One row per rule and pattern of the shell classifier (docs/safety/shell-classifier.md),
// kept from before the hand-written matcher: none asserted one of the demonstrated holes.
var shellCases = []struct {
	cmd  string
	want tools.Class
}{
	// 1. forbidden patterns
	{"format C:", fb},
	{"FORMAT d: /q", fb},
	{"format  c:", fb},
	{"diskpart", fb},
	{"echo list disk | DiskPart", fb},
	{"bcdedit /set testsigning on", fb},
	{"cipher /w:C:\\", fb},
	{"CIPHER /W:d:", fb},
	{`Remove-Item -Recurse HKLM:\Software\X`, fb},
	{`remove-item C:\Windows\System32\drivers`, fb},
	{"Remove-Item x\nGet-Item HKLM:\\x", fb},
	{"Get-ChildItem; diskpart", fb},
	{"git status && format C:", fb},
	// 2. approval patterns (they override read-only and reversible prefixes)
	{"winget install Git.Git", ap},
	{"choco upgrade all", ap},
	{"scoop uninstall git", ap},
	{"pip install requests", ap},
	{"uv add httpx", ap},
	{"npm install", ap},
	{"pnpm remove x", ap},
	{"yarn upgrade", ap},
	{"cargo install ripgrep", ap},
	{"npm update", ap},
	{"git push origin main", ap},
	{"git commit -m x", ap},
	{"git merge dev", ap},
	{"git rebase main", ap},
	{"git reset --hard", ap},
	{"git clean -fdx", ap},
	{"gh pr create --fill", ap},
	{"gh pr merge 1", ap},
	{"gh release create v1", ap},
	{`reg add HKCU\Software\X`, ap},
	{`reg delete HKCU\Software\X`, ap},
	{"Set-Item env:X 1", ap},
	{"Set-ItemProperty -Path x -Name y", ap},
	{"New-Item -ItemType Directory x", ap},
	{"New-ItemProperty -Path x", ap},
	{"Remove-Item x", ap},
	{"Enable-WindowsOptionalFeature -Online -FeatureName Microsoft-Windows-Subsystem-Linux", ap},
	{"Disable-WindowsOptionalFeature -Online -FeatureName X", ap},
	{"Invoke-Expression $x", ap},
	{"Start-Process notepad", ap},
	{"rm -rf build", ap},
	{"del file.txt", ap},
	{"erase file.txt", ap},
	{"rmdir build", ap},
	{"Get-ChildItem -Path . rm", ap},
	{"git status rm", ap},
	{"pytest --rm", ap},
	{"Get-Item x Remove-Item", ap},
	// 3. dynamic syntax never inherits a read-only or reversible prefix
	{"git status; whoami", ap},
	{"git status && rm x", ap},
	{"git status || whoami", ap},
	{"git status | Out-File x", ap},
	{"git log > out.txt", ap},
	{"git diff < in.txt", ap},
	{"Get-ChildItem $(whoami)", ap},
	{"Get-ChildItem @(1,2)", ap},
	{"git log `whoami`", ap},
	{"git status & calc", ap},
	{"git status\nwhoami", ap},
	{"git status\rwhoami", ap},
	{"pytest; whoami", ap},
	{"dotnet build > log", ap},
	{"python --version; calc", ap},
	// 4. read-only prefixes
	{"git status --short", ro},
	{"git status", ro},
	{"  git log -5", ro},
	{"git diff HEAD~1", ro},
	{"git show HEAD", ro},
	{"GIT STATUS", ro},
	{"Get-ChildItem", ro},
	{`Get-ChildItem C:\src`, ro},
	{"get-content README.md", ro},
	{"Test-Path C:\\x", ro},
	{"Resolve-Path .", ro},
	{"where git", ro},
	{"where.exe git", ro},
	{"python --version", ro},
	{"py --version", ro},
	{"node --version", ro},
	{"npm --version", ro},
	{"git --version", ro},
	{"gh --version", ro},
	{"dotnet --version", ro},
	{"cargo --version", ro},
	{"rustc --version", ro},
	{"go -version", ro},
	{"java -version", ro},
	{"winget --version", ro},
	{"choco --version", ro},
	{"scoop --version", ro},
	// 5. reversible prefixes
	{"pytest", rev},
	{"pytest -q tests", rev},
	{"ruff check .", rev},
	{"pylint src", rev},
	{"eslint .", rev},
	{"dprint check", rev},
	{"cargo test", rev},
	{"go test ./...", rev},
	{"dotnet test", rev},
	{"dotnet build", rev},
	{"DOTNET BUILD -c Release", rev},
	// 6. otherwise approval-required
	{"", ap},
	{"whoami", ap},
	{"curl https://example.com", ap},
	{"git statusx", ap},
	{"gitstatus", ap},
	{"pytestx", ap},
	{"dprint fmt", ap},
	{"go build ./...", ap},
	{"x git status", ap},
	{"python script.py", ap},
	{"Test-Pathx", ap},
}

func TestShell(t *testing.T) {
	for _, c := range shellCases {
		if got := Shell(c.cmd); got != c.want {
			t.Errorf("Shell(%q) = %s, want %s", c.cmd, got, c.want)
		}
	}
}

func TestDynamic(t *testing.T) {
	for _, s := range []string{";", "\r", "\n", "&&", "||", "|", ">", "<", "$(", "@(", "`", "&"} {
		if !Dynamic("git status " + s + " x") {
			t.Errorf("Dynamic missed %q", s)
		}
	}
	for _, s := range []string{"git status", "Get-ChildItem $env:TEMP", "Get-Item (x)", "echo $x", "a @b"} {
		if Dynamic(s) {
			t.Errorf("Dynamic(%q) = true", s)
		}
	}
}

// Every shell row must keep its class whatever the ASCII case.
func TestShellCaseInsensitive(t *testing.T) {
	for _, c := range shellCases {
		for _, v := range []string{strings.ToUpper(c.cmd), strings.ToLower(c.cmd)} {
			if got := Shell(v); got != c.want {
				t.Errorf("Shell(%q) = %s, want %s (case variant of %q)", v, got, c.want, c.cmd)
			}
		}
	}
}

// fold must know every rune that Go's case folding or upper/lower-casing maps to an
// ASCII letter: the old (?i) patterns matched them, and NTFS upper-cases ı and ſ.
func TestFoldCoversASCIIFolds(t *testing.T) {
	t.Parallel()
	ascii := func(r rune) bool { return r < 0x80 && unicode.IsLetter(r) }
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		folds := ascii(unicode.ToUpper(r)) || ascii(unicode.ToLower(r))
		for f := unicode.SimpleFold(r); f != r && !folds; f = unicode.SimpleFold(f) {
			folds = ascii(f)
		}
		if !folds {
			continue
		}
		v := fold(string(r))
		if len(v) != 1 || !isLetter(v[0]) || isWord(v[0]) {
			t.Errorf("fold(%U) = %q, want one upper-case marker letter", r, v)
		}
	}
}

// Explain never returns an empty reason, and Shell agrees with it.
func TestExplainReasons(t *testing.T) {
	t.Parallel()
	for _, c := range shellCases {
		got, why := Explain(c.cmd)
		if got != Shell(c.cmd) || why == "" {
			t.Errorf("Explain(%q) = %s, %q; Shell %s", c.cmd, got, why, Shell(c.cmd))
		}
	}
	for cmd, want := range map[string]string{
		"git diff --output=FILE":              "--output=FILE",
		"go test -exec x ./...":               "-exec",
		"Get-Item (x)":                        "parentheses",
		"git status rm":                       `"rm"`,
		"diskpart":                            "diskpart",
		"powershell -enc " + enc("format C:"): "base64",
		"whoami":                              "whoami",
	} {
		if _, why := Explain(cmd); !strings.Contains(why, want) {
			t.Errorf("Explain(%q) reason %q does not mention %q", cmd, why, want)
		}
	}
}

// Commands over MaxCommandBytes are approval-required with a reason naming the limit,
// unless a forbidden rule matches anywhere in them.
func TestCommandLimit(t *testing.T) {
	t.Parallel()
	long := "git status " + strings.Repeat("a", MaxCommandBytes)
	if c, why := Explain(long); c != ap || !strings.Contains(why, strconv.Itoa(MaxCommandBytes)) {
		t.Errorf("over the limit: %s, %q", c, why)
	}
	if c := Shell(long[:MaxCommandBytes]); c != ro {
		t.Errorf("at the limit: %s", c)
	}
	if c := Shell(strings.Repeat("x ", MaxCommandBytes) + "format C:"); c != fb {
		t.Errorf("forbidden over the limit: %s", c)
	}
}

// Each forbidden word and approval pattern sits under its first letter (the scanners
// look only there), and the approval table still holds all 69 patterns of the old rule.
func TestTablesIndexed(t *testing.T) {
	t.Parallel()
	for i, ws := range forbiddenWords {
		for _, w := range ws {
			if w.s[0] != byte('a'+i) || w.s != strings.ToLower(w.s) {
				t.Errorf("%q is under %c", w.s, 'a'+i)
			}
		}
	}
	n := 0
	for i, ps := range approvalPatterns {
		for _, p := range ps {
			n++
			if p[0] != byte('a'+i) || p != strings.ToLower(p) {
				t.Errorf("%q is under %c", p, 'a'+i)
			}
		}
	}
	if n != 69 {
		t.Errorf("%d approval patterns, want 69", n)
	}
}
