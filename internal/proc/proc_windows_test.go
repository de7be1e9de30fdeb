//go:build windows

package proc

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/windows"
)

// underWine reports whether the tests run under Wine (ntdll exports wine_get_version).
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

// waitForExit waits for pid and returns its exit code; ok is false if the process was
// already gone (it cannot be opened any more).
func waitForExit(t *testing.T, pid int) (code uint32, ok bool) {
	t.Helper()
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0, false
	}
	defer windows.CloseHandle(h)
	if _, err := windows.WaitForSingleObject(h, windows.INFINITE); err != nil {
		t.Fatalf("WaitForSingleObject: %v", err)
	}
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		t.Fatalf("GetExitCodeProcess: %v", err)
	}
	return code, true
}

// TestJobKillsTreeOnTimeout: the grandchild holds the pipes and would sleep 30 s and
// exit 0; terminating the job must end it with the job's exit code 1.
func TestJobKillsTreeOnTimeout(t *testing.T) {
	req := helperRequest(t, "grandchild")
	req.Timeout = 1
	r := Run(context.Background(), req)
	if !r.TimedOut || !r.ExecutionStarted || r.Error != "Process timed out after 1 seconds" {
		t.Fatalf("receipt %+v", r)
	}
	if !r.OutputCaptureSettled || !r.OutputCaptureComplete {
		t.Errorf("terminating the job closes every writer; capture should be complete: %+v", r)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(r.Stdout))
	if err != nil {
		t.Fatalf("grandchild pid not printed: %q", r.Stdout)
	}
	if code, ok := waitForExit(t, pid); ok && code != 1 {
		t.Errorf("grandchild exit code %d, want 1 (terminated with the job)", code)
	}
}

// TestJobSweepsDescendantsAfterNormalExit: the child exits 0 at once; its grandchild
// is ended with the job, so the run completes with a clean EOF.
func TestJobSweepsDescendantsAfterNormalExit(t *testing.T) {
	r := Run(context.Background(), helperRequest(t, "orphan"))
	if !r.Succeeded || !r.StdoutWhole() {
		t.Fatalf("receipt %+v", r)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(r.Stdout))
	if err != nil {
		t.Fatalf("grandchild pid not printed: %q", r.Stdout)
	}
	if code, ok := waitForExit(t, pid); ok && code != 1 {
		t.Errorf("grandchild exit code %d, want 1 (terminated with the job)", code)
	}
}

func TestBatchTargetsRefused(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{".cmd", ".bat", ".CMD"} {
		p := filepath.Join(dir, "x"+ext)
		if err := os.WriteFile(p, []byte("@echo injected\r\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := Run(context.Background(), Request{Argv: []string{p, "a"}, Dir: dir})
		want := "Unsupported Windows command target: " + strings.ToLower(ext)
		if r.ExecutionStarted || r.Error != want {
			t.Errorf("%s: receipt %+v, want error %q", ext, r, want)
		}
		if id, err := Fingerprint(p); err == nil {
			t.Errorf("%s has an identity: %+v", ext, id)
		}
		if got, ok := NewResolver(os.Getenv).Resolve(p); ok {
			t.Errorf("absolute %s resolved to %q", ext, got)
		}
	}
	noext := filepath.Join(dir, "tool")
	os.WriteFile(noext, nil, 0o644)
	if r := Run(context.Background(), Request{Argv: []string{noext}, Dir: dir}); r.ExecutionStarted || !strings.Contains(r.Error, "Unsupported Windows command target") {
		t.Errorf("extensionless target: %+v", r)
	}
}

func TestPowerShellScriptArgv(t *testing.T) {
	ps, err := SystemBinary(powerShellPath)
	if err != nil {
		t.Skip("no Windows PowerShell:", err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "shim.ps1")
	if err := os.WriteFile(script, []byte("foreach ($a in $args) { [Console]::Out.WriteLine($a) }\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id, err := Fingerprint(script)
	if err != nil || id.Kind != KindPowerShellScript {
		t.Fatalf("Fingerprint(.ps1) = %+v, %v", id, err)
	}
	args := []string{"& whoami", "a | b", "%PATH%", "^", "!x!", `"quoted"`, "$(Get-Date)", "; exit 3"}
	argv := append([]string{script}, args...)

	p, refused := prepare(Request{Argv: argv, Dir: dir, Expected: &id})
	if refused != nil {
		t.Fatalf("prepare refused: %+v", refused)
	}
	if got := len(p.seals); got != 2 {
		t.Errorf("%d seals held, want script and interpreter", got)
	}
	// The script is locked while sealed, and so is the interpreter: a write open fails.
	if f, err := os.OpenFile(script, os.O_WRONLY, 0); err == nil {
		f.Close()
		t.Error("script writable while sealed")
	}
	p.release()
	want := append([]string{ps, "-NoProfile", "-NonInteractive", "-File", script}, args...)
	if d := cmp.Diff(want, p.args); d != "" {
		t.Errorf("interpreter argv (-want +got):\n%s", d)
	}
	if p.path != ps {
		t.Errorf("program = %q, want %q", p.path, ps)
	}

	wrongKind := Identity{Kind: KindFile, SHA256: id.SHA256}
	if r := Run(context.Background(), Request{Argv: argv, Dir: dir, Expected: &wrongKind}); !r.IdentityMismatch || r.ExecutionStarted {
		t.Errorf(".ps1 with kind file: %+v", r)
	}

	if underWine() {
		t.Skip("Wine's powershell.exe is a stub that runs nothing")
	}
	r := Run(context.Background(), Request{Argv: argv, Dir: dir, Expected: &id})
	if !r.Succeeded {
		t.Fatalf("receipt %+v", r)
	}
	if d := cmp.Diff(argv, r.Argv); d != "" {
		t.Errorf("receipt argv is the caller's (-want +got):\n%s", d)
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(r.Stdout, "\r\n", "\n"), "\n"), "\n")
	if d := cmp.Diff(args, lines); d != "" {
		t.Errorf("arguments are not literal data (-want +got):\n%s", d)
	}
}

func TestResolverWindows(t *testing.T) {
	root := t.TempDir()
	a, b, c := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "c")
	for _, d := range []string{a, b, c} {
		os.MkdirAll(d, 0o755)
	}
	touch := func(p string) {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	touch(filepath.Join(a, "both.ps1"))
	touch(filepath.Join(a, "both.exe"))
	touch(filepath.Join(a, "early.ps1"))
	touch(filepath.Join(b, "early.exe"))
	touch(filepath.Join(a, "shim.cmd"))
	touch(filepath.Join(a, "shim.bat"))
	touch(filepath.Join(b, "shim.ps1"))
	touch(filepath.Join(a, "batonly.cmd"))
	touch(filepath.Join(a, "odd.xyz"))
	touch(filepath.Join(b, "com.com"))
	touch(filepath.Join(c, "cwdtool.exe"))
	t.Chdir(c)

	env := map[string]string{"PATHEXT": ".XYZ;.CMD;.BAT", "TOOLS": b, "USERPROFILE": root}
	tests := []struct {
		name, path, in, want string
	}{
		{"exe over ps1 in the same directory", a, "both", filepath.Join(a, "both.exe")},
		{"directory order dominates extension order", a + ";" + b, "early", filepath.Join(a, "early.ps1")},
		{"never .cmd/.bat, even first in PATH", a + ";" + b, "shim", filepath.Join(b, "shim.ps1")},
		{"a .cmd-only tool is unresolvable", a, "batonly", ""},
		{"explicit .cmd name is unresolvable", a, "batonly.cmd", ""},
		{"PATHEXT is ignored", a, "odd", ""},
		{".com is a candidate", b, "com", filepath.Join(b, "com.com")},
		{"explicit allowed extension", a + ";" + b, "early.exe", filepath.Join(b, "early.exe")},
		{"name with unknown extension", a, "odd.xyz", ""},
		{"relative entries skipped", `c;.\c;..\c`, "cwdtool", ""},
		{"the cwd is skipped even as an absolute entry", c, "cwdtool", ""},
		{"quoted entries", `"` + b + `"`, "com", filepath.Join(b, "com.com")},
		{"environment variables expanded", `%TOOLS%`, "com", filepath.Join(b, "com.com")},
		{"home expanded", `~\b`, "com", filepath.Join(b, "com.com")},
		{"duplicates are harmless", strings.ToUpper(a) + ";" + a + ";" + b, "shim", filepath.Join(b, "shim.ps1")},
		{"relative name with directory", a, `a\both`, ""},
		{"drive-relative name", a, `C:both`, ""},
		{"absolute .exe", "", filepath.Join(a, "both.exe"), filepath.Join(a, "both.exe")},
		{"absolute .cmd", "", filepath.Join(a, "shim.cmd"), ""},
		{"blank", a, " ", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewResolver(func(k string) string {
				if k == "PATH" {
					return tc.path
				}
				return env[k]
			})
			got, ok := r.Resolve(tc.in)
			if ok != (tc.want != "") || !strings.EqualFold(got, tc.want) {
				t.Errorf("Resolve(%q) with PATH=%q = %q, %v; want %q", tc.in, tc.path, got, ok, tc.want)
			}
		})
	}
}

// TestSealLocksFile: while held, the sealed file cannot be written, renamed or deleted;
// reading stays possible (CreateProcess needs that). After release, writing works again.
func TestSealLocksFile(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "tool.exe")
	copyFile(t, helperPath(t), exe)
	s, err := openSeal(exe)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := os.OpenFile(exe, os.O_WRONLY, 0); err == nil {
		f.Close()
		t.Error("write open succeeded while sealed")
	}
	if err := os.Rename(exe, exe+".moved"); err == nil {
		t.Error("rename succeeded while sealed")
	}
	if err := os.Remove(exe); err == nil {
		t.Error("delete succeeded while sealed")
	}
	if f, err := os.Open(exe); err != nil {
		t.Errorf("read open failed while sealed: %v", err)
	} else {
		f.Close()
	}
	s.Close()
	f, err := os.OpenFile(exe, os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("write open after release: %v", err)
	}
	f.Close()
}

func TestFingerprintKindsWindows(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "x.PS1")
	os.WriteFile(script, []byte("'hi'"), 0o644)
	if id, err := Fingerprint(script); err != nil || id.Kind != KindPowerShellScript {
		t.Errorf("Fingerprint(.PS1) = %+v, %v", id, err)
	}
	if id, err := Fingerprint(helperPath(t)); err != nil || id.Kind != KindFile {
		t.Errorf("Fingerprint(.exe) = %+v, %v", id, err)
	}
}

func TestSystemBinaryWindows(t *testing.T) {
	win, err := windows.GetWindowsDirectory()
	if err != nil {
		t.Fatal(err)
	}
	got, err := SystemBinary("cmd.exe")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(win, "System32", "cmd.exe")
	if os.Getenv("PROCESSOR_ARCHITEW6432") != "" {
		want = filepath.Join(win, "Sysnative", "cmd.exe")
	}
	if !strings.EqualFold(got, want) {
		t.Errorf("SystemBinary(cmd.exe) = %q, want %q", got, want)
	}
	// PATH plays no part.
	t.Setenv("PATH", t.TempDir())
	if again, err := SystemBinary("cmd.exe"); err != nil || again != got {
		t.Errorf("with an empty PATH: %q, %v", again, err)
	}
	if _, err := SystemBinary("no-such-binary-here.exe"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing binary: %v", err)
	}
	for _, bad := range []string{"", `..\cmd.exe`, `C:\Windows\System32\cmd.exe`, `\cmd.exe`, `a\..\..\x.exe`, `C:cmd.exe`} {
		if p, err := SystemBinary(bad); err == nil {
			t.Errorf("SystemBinary(%q) = %q, want an error", bad, p)
		}
	}
}

// TestAppExecutionAliasSealedThroughLaunch uses winget's alias when it is installed.
func TestAppExecutionAliasSealedThroughLaunch(t *testing.T) {
	alias := filepath.Join(os.Getenv("LOCALAPPDATA"), "Microsoft", "WindowsApps", "winget.exe")
	if _, err := os.Lstat(alias); err != nil || os.Getenv("LOCALAPPDATA") == "" {
		t.Skip("no winget App Execution Alias here")
	}
	dir := filepath.Dir(alias)
	got, ok := NewResolver(func(k string) string {
		if k == "PATH" {
			return dir
		}
		return ""
	}).Resolve("winget")
	if !ok || !strings.EqualFold(got, alias) {
		t.Errorf("Resolve(winget) = %q, %v; want the alias %q", got, ok, alias)
	}
	if !SamePath(alias, strings.ToUpper(alias)) {
		t.Error("SamePath does not accept the alias as a file")
	}
	id, err := Fingerprint(alias)
	if err != nil {
		t.Fatal(err)
	}
	if id.Kind != KindAppExecutionAlias {
		t.Fatalf("kind = %s, want app_execution_alias", id.Kind)
	}
	r := Run(context.Background(), Request{Argv: []string{alias, "--version"}, Dir: t.TempDir(), Expected: &id})
	if !r.ExecutionStarted || r.IdentityMismatch {
		t.Errorf("sealed alias run: %+v", r)
	}
}

func TestSamePathWindows(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "Tool.exe")
	os.WriteFile(f, nil, 0o644)
	if !SamePath(f, strings.ToUpper(f)) {
		t.Error("case variants are not the same path")
	}
	if SamePath(f, filepath.Join(dir, "other.exe")) || SamePath(f, "Tool.exe") {
		t.Error("different or relative paths reported equal")
	}
}

// TestKilledServerTakesJobDown: a stand-in server runs a ten-minute child through Run
// and is terminated outright. Its job handle closes with it, and kill-on-close must end
// the child well before the child's own sleep could.
func TestKilledServerTakesJobDown(t *testing.T) {
	addr, pids := notifications(t)
	srv := exec.Command(helperPath(t), addr, "hanglong")
	srv.Env = helperEnvFor("server")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	pid := <-pids
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		t.Fatalf("OpenProcess(child %d): %v", pid, err)
	}
	defer windows.CloseHandle(h)
	if err := srv.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	srv.Wait()
	if ev, err := windows.WaitForSingleObject(h, 60_000); ev != windows.WAIT_OBJECT_0 {
		windows.TerminateProcess(h, 1)
		t.Fatalf("the child of a killed server survived it (wait %#x, %v)", ev, err)
	}
}

// TestRunHeldDirHandleWindows: the child starts in the held directory, and the handle
// os.Open returns (no FILE_SHARE_DELETE) keeps the directory from being renamed.
func TestRunHeldDirHandleWindows(t *testing.T) {
	base := t.TempDir()
	work := filepath.Join(base, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := os.Open(work)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	req := helperRequest(t, "cwd")
	req.Dir, req.DirHandle = "", h
	r := Run(context.Background(), req)
	gotDir, _ := filepath.EvalSymlinks(r.Stdout)
	wantDir, _ := filepath.EvalSymlinks(work)
	if !r.Succeeded || gotDir == "" || !strings.EqualFold(gotDir, wantDir) {
		t.Errorf("cwd %q, want %q (%+v)", r.Stdout, work, r)
	}
	if err := os.Rename(work, filepath.Join(base, "moved")); err == nil {
		if underWine() {
			t.Log("Wine does not enforce directory share modes; rename protection unverified")
		} else {
			t.Error("a directory held open by os.Open could be renamed")
		}
	}
}
