package classify

import (
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// notReadOnly22 are the shell forms of issue 22 §2 that ran a program, wrote, prompted
// or reached another computer while classified read-only or reversible, and their
// abbreviations (PowerShell accepts any unique prefix of a parameter's name): each
// must be at least approval-required.
var notReadOnly22 = []struct{ cmd, what string }{
	// installs a provider from the network
	{"Get-PackageProvider -ForceBootstrap", "Get-PackageProvider -ForceBootstrap"},
	{"Get-PackageProvider -Name NuGet -ForceB", "abbreviated -ForceB"},
	{"Get-PackageProvider -Name Chocolatey -Force", "-Force acts as -ForceBootstrap there"},
	{"Get-PackageProvider NuGet -f", "one-letter abbreviation"},
	{"get-packageprovider -FORCEBOOTSTRAP:$true", "colon value, upper case"},
	{"Get-Package -ForceBootstrap", "Get-Package bootstraps too"},
	{"Get-PackageSource -ForceBootstrap", "Get-PackageSource bootstraps too"},
	{"Get-Module -ForceBootstrap", "the parameter on any Get- cmdlet"},
	// writes a file
	{`Get-StorageDiagnosticInfo -DestinationPath C:\x`, "Get-StorageDiagnosticInfo -DestinationPath"},
	{`Get-StorageDiagnosticInfo -Dest C:\x`, "abbreviated -Dest"},
	{`Get-StorageDiagnosticInfo -StorageSubSystemFriendlyName x`, "-DestinationPath is mandatory: it prompts for it"},
	{`Get-ClusterLog -Destination C:\x`, "-Destination on another Get- cmdlet"},
	// prompts for a password
	{"Get-Content x -Credential me", "-Credential"},
	{"Get-ChildItem x -Cred me", "abbreviated -Cred"},
	{"Get-Content x -c me", "one-letter abbreviation of -Credential"},
	{"Get-WmiObject Win32_BIOS -Credential:me", "-Credential:value"},
	{"Test-Path x -Credential me", "Test-Path -Credential"},
	{"Get-PackageSource -ProxyCredential me", "-ProxyCredential"},
	// another computer's share, forward slashes
	{"Get-Content //h/s/x", "UNC path with forward slashes"},
	{"pytest //h/s/test_x.py", "pytest of a UNC path"},
	{`Get-Content \\h\s\x`, "UNC path (already asked)"},
	{`Get-Content '\\h\s\x'`, "quoted UNC path"},
	{`Get-Content "//h/s/x"`, "quoted forward-slash UNC path"},
	{`Get-Content -Path://h/s/x`, "UNC path after -Path:"},
	{`Get-Content -Path:\\h\s\x`, "backslash UNC path after -Path:"},
	{`git log -- //h/s/x`, "git of a UNC path"},
	{`ruff check //h/s`, "ruff of a UNC path"},
	{`pytest --deselect=//h/s/test_x.py`, "UNC path as an option's value"},
	{`eslint \/h/s`, "mixed separators"},
	{`where /r //h/s x`, "where /r on a share"},
	// fetches and runs module code, edits go.mod
	{"go test -mod=mod ./...", "go test -mod=mod"},
	{"go test --mod=mod ./...", "go test --mod=mod"},
	{"go test -mod mod ./...", "-mod with its value as the next word"},
	{"go test -mod=MOD ./...", "-mod=MOD"},
}

func TestNotReadOnly22(t *testing.T) {
	t.Parallel()
	for _, c := range notReadOnly22 {
		if got, why := Explain(c.cmd); got == tools.ReadOnly || got == tools.Reversible {
			t.Errorf("%s: Explain(%q) = %s (%s), want at least approval-required", c.what, c.cmd, got, why)
		}
	}
}

// The same commands without the parameter or path that made them unsafe keep their
// class: the rules name the parameters, they do not refuse the cmdlets.
func TestStillReadOnly22(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cmd  string
		want tools.Class
	}{
		{"Get-PackageProvider", ro},
		{"Get-PackageProvider -ListAvailable", ro},
		{"Get-PackageProvider -Name NuGet", ro},
		{"Get-ChildItem -Force", ro},
		{"Get-ChildItem -Filter *.cs -Force", ro},
		{"Get-Random -Count 3", ro},
		{"Get-ChildItem -Depth 2", ro},
		{"Get-Content x -Tail 5", ro},
		{"Get-Content C://x", ro},
		{"Get-Content ./x//y", ro},
		{"git log --format=%H -- src//x", ro},
		{"go test -mod=readonly ./...", rev},
		{"go test -mod=vendor ./...", rev},
		{"pytest tests/test_x.py", rev},
	} {
		if got, why := Explain(c.cmd); got != c.want {
			t.Errorf("Explain(%q) = %s (%s), want %s", c.cmd, got, why, c.want)
		}
	}
}

// Every reason names what was refused.
func TestNotReadOnly22Reasons(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]string{
		"Get-PackageProvider -ForceB":         "-ForceB",
		"Get-Content x -Cred me":              "-Cred",
		"Get-Content //h/s/x":                 "UNC",
		"go test -mod=mod ./...":              "-mod=mod",
		`Get-StorageDiagnosticInfo -Dest C:x`: "Get-StorageDiagnosticInfo",
	} {
		if _, why := Explain(cmd); !strings.Contains(why, want) {
			t.Errorf("Explain(%q) reason %q does not mention %q", cmd, why, want)
		}
	}
}

// TestFormsCorpus: the committed seed corpus of FuzzShellDifferential holds every
// command of notReadOnly22 (go test -run TestFormsCorpus -update rewrites it).
func TestFormsCorpus(t *testing.T) {
	var cmds []string
	for _, c := range notReadOnly22 {
		cmds = append(cmds, c.cmd)
	}
	checkCorpus(t, "forms22", cmds, "FuzzShellDifferential")
}
