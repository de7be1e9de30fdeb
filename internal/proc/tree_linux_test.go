//go:build linux

package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// TestRunTimeoutKillsGrandchild times out a child whose grandchild holds the output
// pipes. The test process becomes a child subreaper so the orphaned grandchild is
// re-parented to it: waiting for it then proves it died of SIGKILL (it would otherwise
// exit 0 after its 30 s sleep) without the test sleeping or polling.
func TestRunTimeoutKillsGrandchild(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skip("cannot become a child subreaper:", err)
	}
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) })

	req := helperRequest(t, "grandchild")
	req.Timeout = 1
	r := Run(context.Background(), req)
	if !r.TimedOut || !r.ExecutionStarted || r.Error != "Process timed out after 1 seconds" {
		t.Fatalf("receipt %+v", r)
	}
	if r.ReturnCode == nil || *r.ReturnCode != -int(unix.SIGKILL) {
		t.Errorf("returncode = %v, want -9", r.ReturnCode)
	}
	if !r.OutputCaptureSettled || !r.OutputCaptureComplete {
		t.Errorf("killing the group closes every writer, capture should be complete: %+v", r)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(r.Stdout))
	if err != nil {
		t.Fatalf("grandchild pid not printed: %q", r.Stdout)
	}
	var ws unix.WaitStatus
	if _, err := unix.Wait4(pid, &ws, 0, nil); err != nil {
		t.Fatalf("wait4(grandchild %d): %v", pid, err)
	}
	if !ws.Signaled() || ws.Signal() != unix.SIGKILL {
		t.Errorf("grandchild was not killed: status %#x", ws)
	}
	if err := unix.Kill(pid, 0); err != unix.ESRCH {
		t.Errorf("kill(%d, 0) = %v, want ESRCH", pid, err)
	}
}

// TestRunSweepsDescendantsAfterNormalExit: the child exits 0 while a grandchild holds
// its pipes; the group is swept (like closing a kill-on-close job), so the capture
// still ends with a clean EOF and the grandchild dies of SIGKILL.
func TestRunSweepsDescendantsAfterNormalExit(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skip("cannot become a child subreaper:", err)
	}
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) })

	r := Run(context.Background(), helperRequest(t, "orphan"))
	if !r.Succeeded || !r.StdoutWhole() {
		t.Fatalf("receipt %+v", r)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(r.Stdout))
	if err != nil {
		t.Fatalf("grandchild pid not printed: %q", r.Stdout)
	}
	var ws unix.WaitStatus
	if _, err := unix.Wait4(pid, &ws, 0, nil); err != nil {
		t.Fatalf("wait4(grandchild %d): %v", pid, err)
	}
	if !ws.Signaled() || ws.Signal() != unix.SIGKILL {
		t.Errorf("grandchild was not killed: status %#x", ws)
	}
}

// TestKilledServerTakesChildDown: a stand-in server (the test binary in server mode)
// runs a long child through Run and is then killed with SIGKILL, so it can clean up
// nothing. The child must die with it (its parent-death signal), not run on. The test
// is a child subreaper, so the orphaned child is re-parented to it and waiting for it
// shows how it ended; a surviving child would exit 0 after its 30 s sleep.
func TestKilledServerTakesChildDown(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skip("cannot become a child subreaper:", err)
	}
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) })
	addr, pids := notifications(t)

	srv := exec.Command(helperPath(t), addr)
	srv.Env = helperEnvFor("server")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	pid := <-pids // the child runs
	if err := srv.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	srv.Wait()
	var ws unix.WaitStatus
	if _, err := unix.Wait4(pid, &ws, 0, nil); err != nil {
		t.Fatalf("wait4(child %d): %v", pid, err)
	}
	if !ws.Signaled() || ws.Signal() != unix.SIGKILL {
		t.Errorf("the child of a killed server was not killed: status %#x", ws)
	}
}

// TestRunCancelKillsGrandchild cancels a run whose child has started a grandchild that
// holds the pipes; the receipt says cancelled (not a failure) and the grandchild dies.
func TestRunCancelKillsGrandchild(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Skip("cannot become a child subreaper:", err)
	}
	t.Cleanup(func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) })
	addr, pids := notifications(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gc := make(chan int, 1)
	go func() {
		gc <- <-pids
		cancel()
	}()
	r := Run(ctx, helperRequest(t, "grandchild", addr))
	if !r.Cancelled || !r.ExecutionStarted || r.Succeeded || r.TimedOut || !strings.Contains(r.Error, "cancelled") {
		t.Fatalf("receipt %+v", r)
	}
	if !r.OutputCaptureSettled || !r.OutputCaptureComplete {
		t.Errorf("the group kill closes every writer; capture should be complete: %+v", r)
	}
	pid := <-gc
	var ws unix.WaitStatus
	if _, err := unix.Wait4(pid, &ws, 0, nil); err != nil {
		t.Fatalf("wait4(grandchild %d): %v", pid, err)
	}
	if !ws.Signaled() || ws.Signal() != unix.SIGKILL {
		t.Errorf("grandchild was not killed: status %#x", ws)
	}
}

// TestRunHeldDirHandle: the working directory is opened, then renamed away and replaced
// by a symlink to another directory. A child given the handle must run in the held
// directory (same inode), see its current name as cwd and be told that name in PWD.
func TestRunHeldDirHandle(t *testing.T) {
	base := t.TempDir()
	work, elsewhere, moved := filepath.Join(base, "work"), filepath.Join(base, "elsewhere"), filepath.Join(base, "moved")
	for _, d := range []string{work, elsewhere} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	h, err := os.Open(work)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	held, _ := h.Stat()
	if err := os.Rename(work, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, work); err != nil {
		t.Fatal(err)
	}
	req := helperRequest(t, "cwdinfo")
	req.Dir, req.DirHandle = work, h // Dir must be ignored: it now leads elsewhere
	r := Run(context.Background(), req)
	if !r.Succeeded {
		t.Fatalf("receipt %+v", r)
	}
	got := strings.Split(r.Stdout, "\n")
	want := []string{moved, moved, fileKey(held)}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("[getwd PWD identity of .] (-want +got):\n%s", d)
	}
}

func TestRunRefusesUnusableDirHandle(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o644)
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gone := filepath.Join(base, "gone")
	os.Mkdir(gone, 0o755)
	g, err := os.Open(gone)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	os.Remove(gone)
	for name, h := range map[string]*os.File{"not a directory": f, "has been removed": g} {
		req := helperRequest(t, "cwdinfo")
		req.DirHandle = h
		r := Run(context.Background(), req)
		if r.ExecutionStarted || !strings.Contains(r.Error, "Working directory handle cannot be used: "+map[string]string{"not a directory": "not a directory", "has been removed": "the directory has been removed"}[name]) {
			t.Errorf("%s: receipt %+v", name, r)
		}
	}
}

// TestRunReviewedChildSeesItsOwnPath: started from the held descriptor, the child still
// gets the reviewed path as argv[0] and the kernel reports the real file as its
// executable (programs that find their installation through /proc/self/exe keep
// working).
func TestRunReviewedChildSeesItsOwnPath(t *testing.T) {
	exe := helperPath(t)
	id, err := Fingerprint(exe)
	if err != nil {
		t.Fatal(err)
	}
	req := helperRequest(t, "self")
	req.Expected = &id
	r := Run(context.Background(), req)
	if want := exe + "\n" + exe; !r.Succeeded || r.Stdout != want {
		t.Errorf("argv[0] and executable = %q, want %q (%+v)", r.Stdout, want, r)
	}
}

// TestRunUnreviewedScriptSeesItsPath: an unreviewed #! script (a version probe) is
// started by its path, so $0 is that path and a version-manager shim, which reads its
// own name from $0 to know what to run, works.
func TestRunUnreviewedScriptSeesItsPath(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	shim := filepath.Join(dir, "python")
	os.WriteFile(shim, []byte("#!/bin/sh\nprogram=\"${0##*/}\"\nprintf '%s|%s' \"$program\" \"$*\"\n"), 0o755)
	r := Run(context.Background(), Request{Argv: []string{shim, "--version"}, Dir: dir})
	if want := "python|--version"; !r.Succeeded || r.Stdout != want {
		t.Errorf("stdout %q, want %q (%+v)", r.Stdout, want, r)
	}
}

// TestRunReviewedScript: a reviewed #! script is started through the interpreter and
// the argument its #! line names, with its own path as the operand ($0) and the
// caller's arguments after it, exactly as the kernel would start it.
func TestRunReviewedScript(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "tool")
	os.WriteFile(script, []byte("#!/bin/sh -u\nprintf '%s|' \"$0\" \"$@\"\ncase $- in *u*) echo u;; esac\n"), 0o755)
	r := Run(context.Background(), Request{Argv: []string{script, "a b", "c"}, Dir: dir, Expected: reviewed(t, script)})
	if want := script + "|a b|c|u\n"; !r.Succeeded || r.Stdout != want {
		t.Errorf("stdout %q, want %q (%+v)", r.Stdout, want, r)
	}
	if d := cmp.Diff([]string{script, "a b", "c"}, r.Argv); d != "" {
		t.Errorf("receipt argv is not the caller's (-want +got):\n%s", d)
	}
}

// TestRunStartErrorNamesTheExecutable: a failure to exec names the requested path, not
// the interpreter or descriptor path the kernel was given.
func TestRunStartErrorNamesTheExecutable(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "tool")
	os.WriteFile(script, []byte("#!/nonexistent/interpreter\n"), 0o755)
	// Unreviewed: started by its path.
	r := Run(context.Background(), Request{Argv: []string{script}, Dir: dir})
	want := "Process could not be started: fork/exec " + script + ": no such file or directory (its #! interpreter was not found)"
	if r.ExecutionStarted || r.Error != want {
		t.Errorf("error %q, want %q", r.Error, want)
	}
	// Reviewed: started through the interpreter its #! line names.
	r = Run(context.Background(), Request{Argv: []string{script}, Dir: dir, Expected: reviewed(t, script)})
	want = "Process could not be started: fork/exec " + script + ": no such file or directory (its #! interpreter /nonexistent/interpreter was not found)"
	if r.ExecutionStarted || r.Error != want {
		t.Errorf("reviewed: error %q, want %q", r.Error, want)
	}
}
