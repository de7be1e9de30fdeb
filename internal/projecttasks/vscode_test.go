package projecttasks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCommandLine: the command line of a shell task is built as VS Code builds it
// (docs/project-tasks.md, "Shell tasks").
func TestCommandLine(t *testing.T) {
	t.Parallel()
	plain := func(s string) cmdString { return cmdString{value: s} }
	q := func(s, style string) cmdString { return cmdString{value: s, quoting: style} }
	cases := []struct {
		name, goos, shell string
		cmd               cmdString
		original          string
		args              []cmdString
		want              string
	}{
		{"lone command as written", "linux", "sh", plain("ls 'a b' | wc -l"), "ls 'a b' | wc -l", nil, "ls 'a b' | wc -l"},
		{"substitution gave a space", "linux", "sh", plain("/my dir/run"), "${workspaceFolder}/run", nil, "'/my dir/run'"},
		{"substitution without a space", "linux", "sh", plain("/dir/run"), "${workspaceFolder}/run", nil, "/dir/run"},
		{"args with spaces", "linux", "bash", plain("ls"), "ls", []cmdString{plain("a b"), plain("c")}, "ls 'a b' c"},
		{"already quoted", "linux", "bash", plain("ls"), "ls", []cmdString{plain("'a b'"), plain(`"c d"`), plain(`x' 'y`)}, `ls 'a b' "c d" x' 'y`},
		{"escape in bash", "linux", "bash", plain("echo"), "echo", []cmdString{q(`it's "a",b`, "escape")}, `echo it\'s\ \"a\"\,b`},
		{"escape in powershell", "windows", "powershell", plain("echo"), "echo", []cmdString{q("f(a b)", "escape")}, "echo f`(a` b`)"},
		{"strong and weak", "linux", "zsh", plain("echo"), "echo", []cmdString{q("$HOME", "strong"), q("$HOME", "weak")}, `echo '$HOME' "$HOME"`},
		{"cmd has no weak or escape", "windows", `C:\Windows\System32\cmd.exe`, plain("echo"), "echo", []cmdString{q("a b", "weak"), q("c d", "escape")}, "echo a b c d"},
		{"cmd wraps when command and arg quoted", "windows", "cmd.exe", plain(`C:\Program Files\x.exe`), `C:\Program Files\x.exe`, []cmdString{plain("a b")}, `""C:\Program Files\x.exe" "a b""`},
		{"cmd does not wrap one quoted", "windows", "cmd", plain(`C:\Program Files\x.exe`), `C:\Program Files\x.exe`, []cmdString{plain("a")}, `"C:\Program Files\x.exe" a`},
		{"powershell calls a quoted command", "windows", "powershell", plain(`C:\Program Files\x.exe`), `C:\Program Files\x.exe`, []cmdString{plain("a")}, `& 'C:\Program Files\x.exe' a`},
		{"pwsh calls a quoted command", "windows", "pwsh", plain("my tool"), "my tool", []cmdString{plain("a")}, `& 'my tool' a`},
		{"no & outside Windows", "linux", "pwsh", plain("my tool"), "my tool", []cmdString{plain("a")}, `'my tool' a`},
		{"unknown shell on Windows quotes as PowerShell", "windows", "nu", plain("echo"), "echo", []cmdString{q("a b", "escape")}, "echo a` b"},
		{"quoted lone command", "linux", "sh", q("a b", "strong"), "a b", nil, "'a b'"},
	}
	for _, c := range cases {
		if got := commandLine(c.goos, c.shell, c.cmd, c.original, c.args); got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

// TestShellOption: Options.Shell replaces the default shell, and the command line is
// quoted for it.
func TestShellOption(t *testing.T) {
	t.Parallel()
	cases := []struct {
		shell []string
		want  []string
	}{
		{nil, []string{"powershell", "-NoProfile", "-Command", `& 'C:\work\project/tools/run me' 'x y'`}},
		{[]string{""}, []string{"powershell", "-NoProfile", "-Command", `& 'C:\work\project/tools/run me' 'x y'`}},
		{[]string{"pwsh", "-NoProfile", "-Command"}, []string{"pwsh", "-NoProfile", "-Command", `& 'C:\work\project/tools/run me' 'x y'`}},
		{[]string{"cmd.exe", "/d", "/c"}, []string{"cmd.exe", "/d", "/c", `""C:\work\project/tools/run me" "x y""`}},
	}
	for _, c := range cases {
		set, _ := Read(layoutProject(t, "vscode", "windows"), Options{GOOS: "windows", Shell: c.shell})
		task, ok := set.Lookup("vscode:Quoted command")
		if !ok {
			t.Fatal("vscode:Quoted command missing")
		}
		if diff := cmp.Diff(c.want, task.Argv); diff != "" {
			t.Errorf("Shell %q (-want +got):\n%s", c.shell, diff)
		}
		if task.Definition[0] != task.Argv[len(task.Argv)-1] {
			t.Errorf("the definition is not the line the shell gets")
		}
	}
}
