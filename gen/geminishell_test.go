package gen

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// geminiShellDenies reports whether one of the shell rules denies command, as Gemini
// tests them: against its serialisation of the call's arguments.
func geminiShellDenies(t *testing.T, command string) bool {
	t.Helper()
	args := stableStringify(t, map[string]any{"command": command, "description": "d"})
	for _, r := range geminiShellRules() {
		if matchJS(t, r.argsPattern, args) {
			return true
		}
	}
	return false
}

// TestGeminiShellRules: the plain forms of every forbidden rule are denied, ordinary
// commands are not, and nothing is denied that the shell classifier does not forbid
// (the rules only tighten, and only where the hooks of the other hosts deny).
func TestGeminiShellRules(t *testing.T) {
	t.Parallel()
	denied := []string{
		"diskpart",
		"DiskPart /s script.txt",
		"bcdedit /set {current} safeboot minimal",
		"Format-Volume -DriveLetter D",
		"Get-Disk 1 | Clear-Disk -RemoveData",
		"Remove-Partition -DiskNumber 1 -PartitionNumber 2",
		"format C:",
		"format.com D: /fs:ntfs /q",
		"FORMAT /Q E:",
		`cmd /c "format C:"`,
		"cipher /w:C:\\",
		"cipher.exe /W C:\\temp",
		`Remove-Item -Recurse HKLM:\SOFTWARE\Contoso`,
		`reg delete HKEY_LOCAL_MACHINE\SOFTWARE\Contoso /f`,
		`rm -r "HKLM:\SYSTEM\CurrentControlSet\Services\x"`,
		`Get-Item HKCR:\.txt; Remove-Item x`,
		`Remove-Item -Recurse -Force C:\Windows\System32\drivers`,
		`del /s /q c:\windows\system32\*.dll`,
	}
	allowed := []string{
		"git status --short",
		"go test ./...",
		"Get-ChildItem C:\\src",
		"npm install",
		"Get-ItemProperty HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion",
		"rm -rf ./build",
		"Remove-Item .\\dist -Recurse",
		"gofmt -l .",
		"Get-Volume",
		"echo formatting done",
		"cat C:\\Windows\\System32\\drivers\\etc\\hosts",
		"dotnet format",
		"prettier --check .",
	}
	for _, c := range denied {
		if !geminiShellDenies(t, c) {
			t.Errorf("not denied: %s", c)
		}
		if classify.Shell(c) != tools.Forbidden {
			t.Errorf("denied in Gemini but the classifier does not forbid it: %s", c)
		}
	}
	for _, c := range allowed {
		if geminiShellDenies(t, c) {
			t.Errorf("denied: %s (the classifier says %s)", c, classify.Shell(c))
		}
	}
}

// geminiUnsafe is Gemini CLI's refusal of a policy pattern as a possible ReDoS
// (isSafeRegExp, packages/core/src/policy/utils.ts, 0.61.0): longer than 2,048
// characters, or a group holding a quantifier that is itself quantified. A refused
// pattern drops its rule.
var geminiUnsafe = regexp.MustCompile(`\([^)]*[*+?{].*\)[*+?{]`)

// TestGeminiPatternsLoad: Gemini loads every pattern of the policy.
func TestGeminiPatternsLoad(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range append(geminiRules(tools.Default(), cat), geminiShellRules()...) {
		if len(r.argsPattern) > 2048 || geminiUnsafe.MatchString(r.argsPattern) {
			t.Errorf("%s: Gemini refuses the pattern %s", r.tool, r.argsPattern)
		}
	}
}

// TestGeminiShellRulesOnlyTighten runs the rules over the shell classifier's fuzz seed
// corpora: whatever they deny, the classifier forbids.
func TestGeminiShellRulesOnlyTighten(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "host", "classify", "testdata", "fuzz", "*", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no classifier corpus (%v)", err)
	}
	seen := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			lit, ok := strings.CutPrefix(line, "string(")
			if !ok {
				continue
			}
			c, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
			if err != nil {
				continue
			}
			seen++
			if geminiShellDenies(t, c) && classify.Shell(c) != tools.Forbidden {
				t.Errorf("%s: denied in Gemini but the classifier says %s: %q", filepath.Base(f), classify.Shell(c), c)
			}
		}
	}
	if seen == 0 {
		t.Fatal("the corpus held no command")
	}
}
