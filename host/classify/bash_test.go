package classify

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// bashForbidden are forbidden commands spelled the way bash reads them (issue 22 §1,
// "Bash as bash reads it"): each must be forbidden, because the words bash executes
// are forbidden, whatever the spelling.
var bashForbidden = []struct{ cmd, what string }{
	// the demonstrated spellings
	{"disk\\\npart /s x.txt", "backslash-newline inside a word"},
	{"disk$'p'art", "$'…' mid-word"},
	{`bcd$'\x65'dit /set testsigning on`, "$'…' hex escape mid-word"},
	{`disk$"p"art`, `$"…" mid-word`},
	{"rm -rf /c/Win{d,}ows", "brace expansion"},
	{"/c/Windows/System32/disk?art.exe", "glob in the command path"},
	{"rm -rf /proc/cygdrive/c/Windows", "/proc/cygdrive"},
	// relatives of each
	{"for\\\nmat C:", "backslash-newline in format"},
	{"bcd\\\ned\\\nit", "two backslash-newlines"},
	{`dis$'\153'part`, "$'…' octal escape mid-word"},
	{`disk$'\u0070'art`, "$'…' \\u escape mid-word"},
	{`"disk"$'p'"art"`, "quotes of three kinds"},
	{`rm -rf /c/Windows/System{31..33}`, "numeric brace sequence"},
	{`rm -rf /c/Window{r..t}`, "letter brace sequence"},
	{`rm -rf /c/{Program,Win}{d,}ows`, "two brace groups"},
	{`rm -rf /c/Win{{d,x},}ows`, "nested brace groups"},
	{`rm -rf "/c/"Win{d,}ows`, "quoted piece before the braces"},
	{`/c/Windows/System32/bcd[e]dit.exe /set x`, "[set] glob in the command path"},
	{`/c/Windows/System32/f?rmat.com C:`, "glob naming format"},
	{`/c/Windows/System32/*skpart.exe`, "star in the command path"},
	{`/usr/bin/r? -rf /c/Windows`, "glob naming a removal verb"},
	{`rm -rf /proc/cygdrive/c/Windows/System32`, "/proc/cygdrive to System32"},
	{`rm -rf "/proc/cygdrive/c/Windows"`, "/proc/cygdrive quoted"},
	{`${_unset:-disk}part`, "a default value in a parameter expansion"},
	// everywhere bash finds a simple command
	{"echo $(disk$'p'art)", "inside $(…)"},
	{"echo `disk$'p'art`", "inside backticks"},
	{`(bcd$'\x65'dit)`, "in a subshell"},
	{"echo list | disk$'p'art", "in a pipeline"},
	{"true && rm -rf /c/Win{d,}ows", "second command of a list"},
	{"f() { rm -rf /c/Win{d,}ows; }; f", "in a function body"},
	{"if true; then disk\\\npart; fi", "in an if body"},
	{"for d in /c/Win{d,}ows; do rm -rf $d; done", "a for loop's words and its body"},
	{`bash -c "disk\$'p'art"`, "bash -c"},
	{`sh -c 'rm -rf /c/Win{d,}ows'`, "sh -c"},
	{`bash -lc 'rm -rf /c/Win{d,}ows'`, "bundled -lc"},
	{`/usr/bin/env bash -c 'rm -rf /c/Win{d,}ows'`, "env bash -c"},
	{`wsl -e bash -c 'rm -rf /mnt/c/Win{d,}ows'`, "wsl bash -c"},
	{`bash -c "bash -c 'rm -rf /c/Win{d,}ows'"`, "bash -c inside bash -c"},
	{`eval 'rm -rf /c/Win{d,}ows'`, "eval"},
	{`bash <<< "disk\$'p'art"`, "a here-string read by bash"},
	{"bash <<'EOF'\nrm -rf /c/Win{d,}ows\nEOF", "a here-document read by bash"},
	{`cd /c/Win{d,}ows/System32 && rm -rf *`, "change of directory, then removal"},
	// a brace group that explodes does not hide what comes after it
	{"rm -rf " + strings.Repeat("{a,b}", 40) + " /c/Win{d,}ows", "decoy brace explosion before the target"},
	{"rm -rf /c/Win{d,}ows " + strings.Repeat("{a,b}", 40), "brace explosion after the target"},
}

func TestBashForbidden(t *testing.T) {
	t.Parallel()
	for _, c := range bashForbidden {
		if got, why := Explain(c.cmd); got != tools.Forbidden {
			t.Errorf("%s: Explain(%q) = %s (%s), want forbidden", c.what, c.cmd, got, why)
		}
	}
}

// bashNotForbidden: reading a command as bash must not forbid ordinary ones. Unknown
// values (parameters, command substitutions) stay opaque text; a glob is matched
// against the forbidden names only in a command's name.
var bashNotForbidden = []string{
	`rm -rf "$(mktemp -d)/x"`, `rm -rf ${DIR}/build`, `rm -rf "$OUT/x"`, "rm -f *.o", "rm -rf build/{a,b}",
	"echo {1..5}", "ls /proc/cygdrive/c/Users", "cp -r /c/Win{d,}ows/Fonts/x.ttf .", "rm -rf ./dist/*",
	"rm *", "rm -- -x ?", `rm -rf ~/tmp/x`, "bash -c 'rm -rf build'", "f() { rm -rf out; }; f",
	`rm -rf $(git rev-parse --show-toplevel)/build`, "echo $'\\x41'", "find . -name '*.tmp' -delete",
	`Get-ChildItem -Path C:\src -Recurse | Where-Object { $_.Length -gt 1MB } | Remove-Item`,
	"rm -rf /c/Users/me/Win{d,}ows-old",
}

func TestBashNotForbidden(t *testing.T) {
	t.Parallel()
	for _, cmd := range bashNotForbidden {
		if got, why := Explain(cmd); got == tools.Forbidden {
			t.Errorf("Explain(%q) = forbidden (%s)", cmd, why)
		}
	}
}

// A brace expansion bigger than the bash reading allows is asked for, with a reason
// naming the limit, unless what was read by then is forbidden.
func TestBashExpansionLimit(t *testing.T) {
	t.Parallel()
	huge := "echo " + strings.Repeat("{a,b}", 40)
	got, why := Explain(huge)
	if got != tools.ApprovalRequired || !strings.Contains(why, "bash reading") {
		t.Errorf("Explain(%q) = %s (%s), want approval-required naming the bash reading's limits", huge, got, why)
	}
	// The same in every position, nested in bash -c; nesting deeper than the parser
	// is let to go (its recursion costs more than the command's length); more command
	// names with wildcards than are matched.
	for _, cmd := range []string{
		"bash -c 'echo " + strings.Repeat("{a,b}", 40) + "'",
		"echo {1..99999999}",
		"echo " + strings.Repeat("{,}", 64),
		strings.Repeat("$(", maxBashNesting) + "x" + strings.Repeat(")", maxBashNesting),
		strings.Repeat("a && ", maxBashNesting+1) + "echo $x",
		"echo $((" + strings.Repeat("1+", maxBashNesting) + "1))",
		"bash -c '" + strings.Repeat("(", maxBashNesting+1) + "x" + strings.Repeat(")", maxBashNesting+1) + "'",
		strings.Repeat("/bin/l? x; ", maxGlobCommands+1),
	} {
		if got, why := Explain(cmd); got != tools.ApprovalRequired || !strings.Contains(why, "bash reading") {
			t.Errorf("Explain(%q) = %s (%s), want approval-required naming the bash reading's limits", clip(cmd), got, why)
		}
	}
	// What is read before a limit still forbids.
	for _, cmd := range []string{
		"rm -rf /c/Win{d,}ows; echo " + strings.Repeat("{a,b}", 40),
		"disk$'p'art; " + strings.Repeat("/bin/l? x; ", maxGlobCommands+1),
	} {
		if got, why := Explain(cmd); got != tools.Forbidden {
			t.Errorf("Explain(%q) = %s (%s), want forbidden", clip(cmd), got, why)
		}
	}
}

// The bash reading is bounded: its view of any command is at most bashViewFactor times
// the command's length plus a constant, however the braces multiply.
func TestBashViewBounded(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		strings.Repeat("{a,b}", 200),
		strings.Repeat("x{1..1000000} ", 100),
		strings.Repeat(`bash -c "bash -c 'bash -c {a,b}{a,b}{a,b}'" `, 50),
		strings.Repeat("{,}", 5000),
		strings.Repeat("{", 20000) + strings.Repeat("a,b}", 20000),
	} {
		v, _ := bashView(cmd)
		if max := bashLimit(len(cmd)); len(v) > max {
			t.Errorf("bashView(%q) is %d bytes, over the limit %d", clip(cmd), len(v), max)
		}
	}
}

// TestBashReads: the view is the words bash would run, each simple command ended by ";\n".
func TestBashReads(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ cmd, want string }{
		{"disk\\\npart /s x.txt", "diskpart /s x.txt;\n"},
		{"disk$'p'art", "diskpart;\n"},
		{`bcd$'\x65'dit`, "bcdedit;\n"},
		{`a$"b"c 'd e' "f\"g" h\ i`, "abc d e f\"g h i;\n"},
		{"rm -rf /c/Win{d,}ows", "rm -rf /c/Windows /c/Winows;\n"},
		{"echo x{1..3}y", "echo x1y x2y x3y;\n"},
		{"echo {01..03} {a..e..2}", "echo 01 02 03 a c e;\n"},
		{"a; b | c && d", "a;\nb;\nc;\nd;\n"},
		{"echo $HOME ${X} $(date)", "echo $HOME ${X} $(date);\ndate;\n"},
		{"echo ${X:-dflt}", "echo dflt;\n"},
		{"bash -c 'ls {a,b}'", "bash -c ls {a,b};\nls a b;\n"},
		{"/bin/dis?part", "/bin/diskpart;\n"},
		{"rm -rf /proc/cygdrive/c/x", "rm -rf /proc/cygdrive/c/x;\n"},
		{"X=1 cmd", "X=1 cmd;\n"},
	} {
		v, ok := bashView(c.cmd)
		if !ok || string(v) != c.want {
			t.Errorf("bashView(%q) = %q, %v; want %q", c.cmd, v, ok, c.want)
		}
	}
	// A command bash cannot parse gives no view: PowerShell's own syntax is normal.
	for _, cmd := range []string{"Get-Item (x", `if ($x) { "a" } else { "b" }`, "echo 'x"} {
		if v, ok := bashView(cmd); ok || v != nil {
			t.Errorf("bashView(%q) = %q, %v; want no view", cmd, v, ok)
		}
	}
}

// PowerShell commands, which bash often cannot parse or reads otherwise, keep the
// class they had before the bash reading: the reading only adds a view.
func TestBashKeepsPowerShellClasses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cmd  string
		want tools.Class
	}{
		{`Get-ChildItem C:\src\project -Recurse -Filter *.cs`, ro},
		{`Get-ItemProperty HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion`, ro},
		{`Test-Path -LiteralPath 'C:\Program Files\Git'`, ro},
		{`Get-ChildItem -Path C:\src -Recurse | Where-Object { $_.Length -gt 1MB }`, ap},
		{`if (Test-Path x) { Remove-Item x }`, ap},
		{`Remove-Item "C:\Windows\System32" -Recurse`, fb},
		{`$p = "C:\Windows"; Remove-Item "$p\System32"`, fb},
	} {
		if got, why := Explain(c.cmd); got != c.want {
			t.Errorf("Explain(%q) = %s (%s), want %s", c.cmd, got, why, c.want)
		}
	}
}

// TestBashCorpus: the committed seed corpora of FuzzShellDifferential and FuzzBash
// hold every command of bashForbidden (go test -run TestBashCorpus -update rewrites
// them).
func TestBashCorpus(t *testing.T) {
	var cmds []string
	for _, c := range bashForbidden {
		cmds = append(cmds, c.cmd)
	}
	checkCorpus(t, "bash", cmds, "FuzzShellDifferential", "FuzzBash")
}

// checkCorpus writes (with -update) or checks one seed file per command, named
// prefix-NNN, in each fuzz target's corpus directory.
func checkCorpus(t *testing.T, prefix string, cmds []string, targets ...string) {
	t.Helper()
	for _, target := range targets {
		dir := filepath.Join("testdata", "fuzz", target)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for i, cmd := range cmds {
			name := filepath.Join(dir, fmt.Sprintf("%s-%03d", prefix, i))
			want := "go test fuzz v1\nstring(" + strconv.Quote(cmd) + ")\n"
			if *update {
				if err := os.WriteFile(name, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if got, err := os.ReadFile(name); err != nil || string(got) != want {
				t.Errorf("%s is stale or missing (run go test -run %s -update): %v", name, t.Name(), err)
			}
		}
	}
}

// FuzzBash: the bash reading never panics, stays within its limit, and whatever
// forbidden rule its view matches makes the command forbidden.
func FuzzBash(f *testing.F) {
	for _, c := range bashForbidden {
		f.Add(c.cmd)
	}
	for _, c := range bashNotForbidden {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > MaxCommandBytes {
			t.Skip()
		}
		v, ok := bashView(cmd)
		if len(v) > bashLimit(len(cmd)) {
			t.Fatalf("bashView(%q) is %d bytes, over %d", cmd, len(v), bashLimit(len(cmd)))
		}
		if !ok && v == nil {
			return
		}
		if why := scanView(fold(string(v))); why != "" {
			if got, _ := Explain(cmd); got != tools.Forbidden {
				t.Fatalf("bash view of %q is forbidden (%s), Explain says %s", cmd, why, got)
			}
		}
	})
}

// bashBench are typical commands that reach the bash reading (each has a quote, a
// backslash, a $, a brace or a glob), and the worst brace explosion at 4 KiB.
var bashBench = []struct{ name, cmd string }{
	{"quoted-commit", `git commit -m "fix: read the config once" -- src/main.go`},
	{"list-with-vars", `cd "$PROJECT_DIR" && rm -rf build/{obj,bin} && make -j"$(nproc)" 2>&1 | tee build.log`},
	{"windows-path", `Get-ChildItem C:\src\project -Recurse -Filter *.cs`},
	{"bash-c", `bash -lc 'for f in src/*.go; do gofmt -l "$f"; done'`},
	{"braces-4KiB", "echo " + strings.Repeat("{a,b}", 4<<10/5)},
}

// BenchmarkBashView: the bash reading alone, and the whole classification of the
// same commands.
func BenchmarkBashView(b *testing.B) {
	for _, c := range bashBench {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bashView(c.cmd)
			}
		})
		b.Run(c.name+"/Explain", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Explain(c.cmd)
			}
		})
	}
}

// BenchmarkBashWorst: the costliest shapes found for the bash reading, each about
// 60 KB or at a limit: many words, a here-document of source text, brace groups past
// the limit, command names with wildcards, a chain of ! at the nesting limit.
func BenchmarkBashWorst(b *testing.B) {
	n := 60 << 10
	for _, c := range []struct{ name, cmd string }{
		{"words-60KB", "echo " + strings.Repeat("a ", n/2)},
		{"heredoc-60KB", "cat > x.go <<'EOF'\n" + strings.Repeat("func (t *tool) check(display string, args []word) (tools.Class, string) {\n\tif t.sub != \"\" {\n", n/96) + "\nEOF"},
		{"empty-braces-60KB", "echo " + strings.Repeat("{,}", n/3)},
		{"sequences-60KB", strings.Repeat("x{1..9} ", n/8)},
		{"glob-names-60KB", strings.Repeat("/c/*/*/d?s*.exe;", n/16)},
		{"nested-not-limit", "[[ " + strings.Repeat("! ", maxBashNesting-10) + "x ]]"},
		{"nested-subst-limit", strings.Repeat(`"$(echo `, maxBashNesting/2) + strings.Repeat(`)"`, maxBashNesting/2)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.cmd)))
			for b.Loop() {
				Explain(c.cmd)
			}
		})
	}
}
