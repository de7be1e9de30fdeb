package classify

import (
	"encoding/base64"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/windows-dev-agent/wda/tools"
)

var update = flag.Bool("update", false, "rewrite testdata/fuzz/FuzzShellDifferential from the disguise table")

// enc is what powershell -EncodedCommand takes: base64 of UTF-16LE.
func enc(s string) string {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, r := range u {
		b[2*i], b[2*i+1] = byte(r), byte(r>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// disguises are forbidden commands in the forms issue 15 item 4 demonstrated and the
// others found while building the normalisations. Each must be Forbidden.
var disguises = []struct{ cmd, what string }{
	// the plain rules
	{"format C:", "plain"},
	{"diskpart", "plain"},
	{"bcdedit /set testsigning on", "plain"},
	{`cipher /w:C:\`, "plain"},
	{`Remove-Item -Recurse HKLM:\Software\X`, "plain"},
	// quotes inside words
	{"for''mat C:", "empty quotes inside the word"},
	{`for""mat C:`, "empty double quotes inside the word"},
	{`"dis"kpart`, "double-quoted piece"},
	{"di''skpart", "empty single quotes"},
	{`d"i"s"k"p"a"r"t`, "every letter quoted"},
	{`'diskpart'`, "single-quoted name"},
	{`"format" C:`, "quoted name"},
	{`format "C:"`, "quoted drive"},
	{"& 'format' C:", "call operator, single quotes"},
	{`& "diskpart"`, "call operator, double quotes"},
	{"& ('dis'+'kpart')", "string concatenation"},
	{`iex ("for" + "mat C:")`, "concatenation handed to iex"},
	{"\u2018dis\u2019kpart", "typographic single quotes"},
	{"\u201cformat\u201d C:", "typographic double quotes"},
	// escapes
	{"cmd /c disk^part", "cmd caret"},
	{"f^o^r^m^a^t C:", "carets everywhere"},
	{"^d^i^s^k^p^a^r^t", "leading caret"},
	{`cmd /c "for^mat C:"`, "caret inside quotes"},
	{"dis`kpart", "PowerShell backtick"},
	{"d`i`s`k`p`a`r`t", "backticks everywhere"},
	{"f`ormat C:", "backtick in format"},
	{"iex \"format`tC:\"", "`t is a tab inside double quotes"},
	{"iex \"dis`u{6B}part\"", "`u{} escape"},
	{`dis\kpart`, "bash backslash"},
	{`$'\x64iskpart'`, "bash ANSI-C hex"},
	{`$'\144iskpart'`, "bash ANSI-C octal"},
	{`$'dis\u006bpart'`, "bash ANSI-C \\u"},
	{"dis\u200bkpart", "zero-width space"},
	{"dis\u00adkpart", "soft hyphen"},
	{"\ufeffdiskpart", "byte-order mark"},
	// case and look-alike letters
	{"DISKPART", "upper case"},
	{"DiskPart.EXE", "mixed case with extension"},
	{"di\u017Fkpart", "long s (ſ) folds to s"},
	{"dis\u212Apart", "Kelvin sign folds to k"},
	{"d\u0131skpart", "dotless ı upper-cases to I"},
	{"format\u00a0C:", "no-break space"},
	{"format\u3000C:", "ideographic space"},
	{"Remove\u2013Item HKLM:\\Software\\X", "en dash for the hyphen"},
	// extensions and paths of the executables
	{"format.com C:", ".com extension"},
	{"format.exe D: /q", ".exe extension"},
	{"format.COM /q /fs:ntfs C:", "switches before the drive"},
	{"diskpart.exe /s script.txt", ".exe extension"},
	{"bcdedit.exe /deletevalue {current} safeboot", ".exe extension"},
	{`cipher.exe /w:C:\`, ".exe extension"},
	{`C:\Windows\System32\diskpart.exe`, "full path"},
	{`C:\Windows\System32\format.com C:`, "full path of format"},
	{`c:/windows/system32/diskpart`, "forward slashes"},
	{`%SystemRoot%\System32\bcdedit.exe /set nointegritychecks on`, "environment variable path"},
	{`& "$env:windir\System32\diskpart.exe"`, "PowerShell variable path"},
	{`\\?\C:\Windows\System32\diskpart.exe`, "device path"},
	{"format \\\\?\\Volume{01234567-89ab-cdef-0123-456789abcdef}\\", "volume GUID path"},
	{"Format-Volume -DriveLetter D", "PowerShell format cmdlet"},
	{"Storage\\Format-Volume -DriveLetter D", "module-qualified cmdlet"},
	{"Clear-Disk -Number 1 -RemoveData", "PowerShell disk erase"},
	{"Get-Partition -DiskNumber 1 | Remove-Partition", "PowerShell partition removal"},
	// other carriers
	{"iex 'diskpart'", "iex of a string"},
	{`Invoke-Expression "format C:"`, "Invoke-Expression"},
	{"Start-Process diskpart", "Start-Process"},
	{"Start-Process -FilePath diskpart.exe -Verb RunAs", "Start-Process elevated"},
	{"saps bcdedit", "Start-Process alias"},
	{`cmd.exe /c "diskpart /s x.txt"`, "cmd /c"},
	{`powershell -Command "& {diskpart}"`, "powershell -Command"},
	{"pwsh -c diskpart", "pwsh -c"},
	{"wsl -- format C:", "wsl carrying format (decided: forbidden)"},
	{"echo list disk | DiskPart", "piped"},
	{"git status && format C:", "compound"},
	{"Get-ChildItem; diskpart", "after a read-only command"},
	// cipher variants
	{"CIPHER /W:d:", "upper case"},
	{"cipher -w:C", "dash switch"},
	{`cipher /e /w:C:\`, "another switch first"},
	{`cipher "/w:C:\"`, "quoted switch"},
	{`cipher   /W:C:\x`, "several spaces"},
	{`cipher/w:C:\`, "switch attached to the name (cmd)"},
	{`cipher.exe/w:C:\`, "switch attached to the extension"},
	{"format/q C:", "switch attached to the name (cmd)"},
	// encoded commands: -EncodedCommand and its abbreviations, payload forms
	{"powershell -enc " + enc("diskpart"), "-enc"},
	{"powershell -EncodedCommand " + enc("format C:"), "-EncodedCommand"},
	{"powershell -e " + enc("bcdedit /set testsigning on"), "-e"},
	{"pwsh -ec " + enc(`Remove-Item -Recurse HKLM:\SOFTWARE\X`), "-ec"},
	{"powershell.exe -NoProfile -en " + enc("cipher /w:C:"), "-en"},
	{"powershell /enc " + enc("diskpart"), "slash switch"},
	{"powershell -enc '" + enc("diskpart") + "'", "quoted payload"},
	{"powershell -enc " + enc("for''mat C:"), "disguise inside the payload"},
	{"powershell -enc " + enc("powershell -enc "+enc("diskpart")), "payload inside a payload"},
	{"powershell -enc ('" + enc("diskpart")[:8] + "'+'" + enc("diskpart")[8:] + "')", "concatenated payload"},
	{"iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('" + b64("diskpart") + "')))", "UTF-8 base64 through iex"},
	{"Start-Process powershell -ArgumentList '-enc', '" + enc("format C:") + "'", "payload as Start-Process argument"},
	// registry forms
	{`Remove-Item Registry::HKEY_LOCAL_MACHINE\SOFTWARE\X`, "provider path"},
	{`Remove-Item -Path 'Registry::HKLM\SOFTWARE\X'`, "provider path, short hive"},
	{`Remove-Item Microsoft.PowerShell.Core\Registry::HKEY_LOCAL_MACHINE\SOFTWARE\X`, "module-qualified provider"},
	{`ri -r -fo HKLM:\SOFTWARE\X`, "ri alias"},
	{`Get-Item (ri -r -fo HKLM:\SOFTWARE\X)`, "the demonstrated subexpression"},
	{`rm -Recurse hklm:/SOFTWARE/X`, "rm alias, forward slashes"},
	{`del HKLM:\SOFTWARE\X`, "del alias"},
	{`Remove-ItemProperty -Path HKLM:\SOFTWARE\X -Name Y`, "value removal"},
	{`Clear-Item HKLM:\SOFTWARE\X`, "clear"},
	{`Rename-Item HKLM:\SOFTWARE\X Y`, "rename"},
	{`reg delete HKLM\SOFTWARE\X /f`, "reg.exe delete"},
	{`reg.exe delete "HKEY_LOCAL_MACHINE\SOFTWARE\X" /va /f`, "reg.exe, long hive"},
	{`Remove-Item Registry::HKEY_CLASSES_ROOT\.txt`, "HKCR shows HKLM\\SOFTWARE\\Classes"},
	{`Get-ChildItem HKLM:\SOFTWARE\X | Remove-Item -Recurse`, "piped into Remove-Item"},
	{`Remove-Item x` + "\n" + `Get-Item HKLM:\x`, "old rule: target anywhere later"},
	// system directory forms
	{`remove-item C:\Windows\System32\drivers`, "plain"},
	{`Remove-Item C:/Windows/System32/drivers`, "forward slashes"},
	{`rm -rf c:\windows\system32`, "lower case"},
	{`del /s /q C:\WINDOWS\system32\*`, "cmd del"},
	{`rd /s /q D:\Windows\System32`, "another drive"},
	{`Remove-Item C:\Windows\\System32`, "doubled separator"},
	{`Remove-Item C:\\Windows\\System32`, "escaped separators"},
	{`rm -rf /c/Windows/System32`, "Git Bash drive path"},
	{`rm -rf /mnt/c/Windows/System32`, "WSL drive path"},
	{`rm -rf /cygdrive/c/windows/system32`, "Cygwin drive path"},
	{`Remove-Item \\?\C:\Windows\System32`, `\\?\ prefix`},
	{`Remove-Item \\.\C:\Windows\System32`, `\\.\ prefix`},
	{`Remove-Item \??\C:\Windows\System32`, `\??\ prefix`},
	{`Remove-Item \\?\GLOBALROOT\Device\HarddiskVolume3\Windows\System32`, "NT device path"},
	{`Remove-Item \\localhost\C$\Windows\System32`, "admin share of the drive"},
	{`Remove-Item \\127.0.0.1\admin$\System32`, "ADMIN$ is the Windows directory"},
	{`Remove-Item \\?\UNC\localhost\c$\Windows\System32`, "UNC device path"},
	{`Remove-Item $env:windir\System32 -Recurse`, "$env:windir"},
	{`Remove-Item "${env:SystemRoot}\System32"`, "${env:SystemRoot}"},
	{`rd /s /q %SystemRoot%\System32`, "%SystemRoot%"},
	{`rm -rf "$WINDIR/System32"`, "bash variable"},
	{`Remove-Item $env:SystemDrive\Windows\System32`, "$env:SystemDrive"},
	{`Remove-Item $env:ComSpec`, "ComSpec is cmd.exe in System32"},
	{`Remove-Item C:\Windows\Temp\..\System32`, "dot-dot"},
	{`Remove-Item C:\Windows\.\System32`, "dot"},
	{`Remove-Item C:\Users\..\Windows\System32`, "dot-dot from elsewhere"},
	{`rm -rf ../../../../../../Windows/System32`, "relative climb"},
	{`Remove-Item C:\WINDOW~1\SYSTEM~1`, "8.3 short names"},
	{`Remove-Item C:\Win*\Sys*32 -Recurse`, "wildcards"},
	{`Remove-Item C:\Windows\System3?`, "? wildcard"},
	{`Remove-Item C:\Windows\Sys[t]em32`, "[set] wildcard"},
	{`Remove-Item C:\*\System32`, "star for the Windows directory"},
	{`Remove-Item C:\Windows\SysWOW64`, "SysWOW64"},
	{`Remove-Item C:\Windows\Sysnative\x.dll`, "Sysnative"},
	{`Remove-Item "C:\Windows\System32. "`, "trailing dot and space"},
	{`Remove-Item C:\Windows\System32::$INDEX_ALLOCATION`, "directory stream"},
	{`Remove-Item FileSystem::C:\Windows\System32`, "provider-qualified path"},
	{`Remove-Item -LiteralPath:C:\Windows\System32`, "parameter:value"},
	{`Remove-Item C:Windows\System32`, "drive-relative path"},
	{`Remove-Item -Recurse -Force C:\Windows`, "the Windows directory"},
	{`Remove-Item -Recurse C:\`, "a drive root"},
	{`rm -rf /`, "the root"},
	{`del /f /s /q C:\*`, "everything on a drive"},
	{`[IO.Directory]::Delete('C:\Windows\System32', $true)`, ".NET Delete"},
	{`Remove-Item ([Environment]::SystemDirectory)`, "Environment.SystemDirectory"},
	{`Remove-Item ([Environment]::GetFolderPath('System'))`, "GetFolderPath(System)"},
	{`Get-ChildItem C:\Windows\System32 | Remove-Item -Recurse`, "piped into Remove-Item"},
	{`cd C:\Windows\System32; del *.dll`, "change directory, then delete"},
	{`Move-Item C:\Windows\System32 C:\old`, "move"},
	{`mv /c/Windows/System32 /c/old`, "bash mv"},
	{`Rename-Item C:\Windows\System32 old`, "rename"},
	{`takeown /f x & rd /s /q "C:\Windows\System32"`, "after another command"},
}

func TestDisguisesForbidden(t *testing.T) {
	t.Parallel()
	for _, d := range disguises {
		if c, why := Explain(d.cmd); c != tools.Forbidden {
			t.Errorf("%s: Explain(%q) = %s (%s), want forbidden", d.what, d.cmd, c, why)
		}
	}
}

// TestDisguiseCorpus: the committed seed corpus of FuzzShellDifferential holds every
// disguise (go test -run TestDisguiseCorpus -update rewrites it).
func TestDisguiseCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzShellDifferential")
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, d := range disguises {
		name := filepath.Join(dir, fmt.Sprintf("disguise-%03d", i))
		want := "go test fuzz v1\nstring(" + strconv.Quote(d.cmd) + ")\n"
		if *update {
			if err := os.WriteFile(name, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != want {
			t.Errorf("%s is stale or missing (run go test -run TestDisguiseCorpus -update): %v", name, err)
		}
	}
}

// holes are the commands issue 15 item 3 showed passing as read-only or reversible,
// and their relatives: each construct the classifier does not fully understand must
// leave the command at least approval-required.
var holes = []string{
	// demonstrated
	`go test -exec "sh -c 'rm -rf x'" ./...`,
	"git diff --output=FILE",
	`Get-Item (ri -r -fo HKLM:\SOFTWARE\X)`,
	// go test options that run or write
	"go test -exec=rm ./...", "go test --exec rm ./...", "go test -toolexec x ./...", "go test -o /tmp/x",
	"go test -c -o x ./pkg", "go test -coverprofile=/etc/x ./...", "go test -cpuprofile c.out", "go test -ldflags=-extld=rm",
	"go test -gcflags=all=-N", "go test -overlay o.json", "go test -modfile=x.mod", "go test -C .. ./...",
	"go test ./... -args -test.coverprofile=x", "go test -test.outputdir=x", "go test -fuzz FuzzX",
	"go test -O x", "go vet -vettool=x ./...",
	// git options that write, run programs or change what runs
	"git diff --out=FILE", "git log --output FILE", "git show --output=x HEAD", `git diff "--output=x"`,
	"git diff '--output=x'", "git diff --ext-diff", "git log -p --textconv", "git log --show-signature",
	"git -c core.pager=rm log", "git -C .. status", "git --git-dir=x status", "git status --frobnicate",
	"git log -O/etc/passwd", "git diff *", "git log `x`", "git log $X", "git log > x", "git status 2>x",
	`git diff \--output=x`, "git show HEAD --output=x", "git blame x", "git status -x", "git diff ^--output=x", "git diff %X%",
	// PowerShell constructs
	"Get-Item (Remove-Item x)", "Get-ChildItem $(rm x)", "Get-Item @(x)", "Get-Content -Path $env:X",
	"Get-Item -OutVariable x", "Get-Item x -ov y", "Get-Item x -outv y", "Get-Item x -PipelineVariable p",
	"Get-Item {x}", "Get-Item x,y", "Get-Item x; rm y", "Get-Credential", "Get-Help x -Online",
	"Get-Item -Path:$x", "Get-Item @args", "Get-Item x --% y", "Get-Item `x", "Get-ChildItem.exe",
	"Get-Item x -e:y", "Get-Item #x",
	// encoded commands and escapes
	"powershell -enc " + enc("Get-ChildItem"), `Get-Item "$(x)"`, "Get-Item 'x''y'", `git log "a\"b"`,
	"Get-Item \u2013Path x", "git status \u00a0x",
	// the other reversible tools
	"pytest --basetemp=C:\\Users", "pytest -p evil", "pytest -c x.ini", "pytest -o cache_dir=/x",
	"pytest --junitxml=/etc/x", "pytest --junit-xml=x", "pytest --rootdir=/", "pytest *", "pytest -xp evil",
	"pytest --log-file=x", "pytest --pastebin=all", "pytest --cov-report=html:/x",
	`cargo test --config 'target.x.runner="rm"'`, "cargo test --target-dir /x", "cargo test -- --logfile x",
	"cargo test -Zunstable", "cargo +nightly test", "cargo test --manifest-path ../x/Cargo.toml",
	`dotnet build -o C:\x`, "dotnet build /p:X=1", "dotnet build -p:X=1", "dotnet test --results-directory x",
	"dotnet test --diag x", "dotnet build -- -p:x", "dotnet test -s x.runsettings", "dotnet test --logger trx",
	"dotnet test -a x", "dotnet test -e X=1", "dotnet build -bl:x", "dotnet build -t:Clean", "dotnet run",
	"eslint --fix .", "eslint -o out.txt .", "eslint -f ./evil.js .", "eslint --format ./evil.js .",
	"eslint --rulesdir x .", "eslint -c x.js .", "eslint --plugin x .",
	"ruff check --fix", "ruff format", "ruff check -o x", "ruff check --config x", "ruff check --watch", "ruff",
	`pylint --init-hook="import os"`, "pylint --load-plugins=x", "pylint -f x.Reporter", "pylint --output-format=json:out.json",
	"pylint --rcfile=x",
	"dprint check --config x", "dprint check --plugins x", "dprint fmt",
	// where
	`where /r C:\ $x`, "where -x", "where /z x",
	// version forms with more than the flag
	"python --version -c x", "node --version --require x",
}

func TestHolesNeedApproval(t *testing.T) {
	t.Parallel()
	for _, cmd := range holes {
		if c, why := Explain(cmd); c != tools.ApprovalRequired && c != tools.Forbidden {
			t.Errorf("Explain(%q) = %s (%s), want at least approval-required", cmd, c, why)
		} else if why == "" {
			t.Errorf("Explain(%q) gives no reason", cmd)
		}
	}
}

// understood are forms the classifier must keep accepting: the allow-lists must not
// shrink to nothing.
var understood = []struct {
	cmd  string
	want tools.Class
}{
	{"git log --oneline -n 5", ro},
	{"git log --oneline -n5 --graph --decorate --all", ro},
	{"git diff --stat HEAD~1", ro},
	{"git diff --cached -- src/main.go", ro},
	{"git log --format='%H %s' -- docs", ro},
	{`git log --author="Jane Doe" --since=2.weeks`, ro},
	{"git show HEAD:README.md", ro},
	{"git show --name-only -U5 -M50% HEAD", ro},
	{"git status -sb", ro},
	{"git status --porcelain=v2 --untracked-files=no", ro},
	{"git log -S needle -p", ro},
	{"git diff -- '*.go'", ro},
	{"Get-ChildItem -Recurse -Filter *.cs", ro},
	{`Get-Content -Path README.md -TotalCount 5`, ro},
	{`Get-ItemProperty HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion`, ro},
	{`Get-ChildItem C:\Windows\System32 -Filter *.dll`, ro},
	{`Test-Path -LiteralPath 'C:\Program Files\Git'`, ro},
	{"Get-Command git -ErrorAction SilentlyContinue", ro},
	{"where /r . *.exe", ro},
	{"go test -race -count=1 ./internal/...", rev},
	{"go test -run TestX -v ./host/classify", rev},
	{"go test --count 1 -timeout=5m ./...", rev},
	{"cargo test -- --nocapture --test-threads=1", rev},
	{"cargo test -p mycrate --all-features -vv", rev},
	{"dotnet test --filter Category=Unit --no-restore", rev},
	{"dotnet build -c Release -f net8.0 --nologo", rev},
	{`pytest -q -k "not slow" tests`, rev},
	{"pytest -xvs tests/test_x.py::test_y", rev},
	{"pytest -rA --tb=short --maxfail=1 -n auto", rev},
	{"ruff check --select E --statistics src", rev},
	{"pylint --disable=C0114 -j4 src", rev},
	{"pylint --output-format=json src", rev},
	{"eslint --max-warnings 0 --format=stylish src", rev},
	{`eslint "src/**/*.js"`, rev},
	{"dprint check --staged", rev},
}

func TestUnderstoodForms(t *testing.T) {
	t.Parallel()
	for _, c := range understood {
		if got, why := Explain(c.cmd); got != c.want {
			t.Errorf("Explain(%q) = %s (%s), want %s", c.cmd, got, why, c.want)
		}
	}
}

// Benign commands that mention a removal verb or a protected place, but not both in a
// way that could destroy it, stay below forbidden.
func TestNotForbidden(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		"del /s /q build", "rd /s /q node_modules", "rm -rf ./dist", "rm -rf ../build", "rm -rf ..",
		`Remove-Item C:\Windows\Temp\* -Recurse`, `Remove-Item C:\Windows.old -Recurse`,
		`Remove-Item -Recurse C:\src\project\bin`, "rm -rf /tmp/x", "mv a.txt /c/Users/me/",
		`Get-ChildItem C:\Windows\System32`, `reg query HKLM\SOFTWARE\X`, "git log --format=%H",
		"Get-Date -Format yyyy", "Format-Table Name", "git diff --stat", `rm -rf windows`,
		`rm -rf ../windows`, "del /a:h x.txt", "cipher /e secrets", "echo diskparts",
		"git show " + strings.Repeat("0123456789abcdef", 3), `Remove-Item $env:TEMP\x`,
		`Remove-Item "C:\$Recycle.Bin\x"`, "formatter C:", "go test -run Format ./...",
	} {
		if c, why := Explain(cmd); c == tools.Forbidden {
			t.Errorf("Explain(%q) = forbidden (%s)", cmd, why)
		}
	}
}
