//go:build !windows

package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunSettlesWhenEscapedDescendantHoldsPipes: the child exits at once, but a
// grandchild in another session (out of reach of the group kill) keeps both pipes
// open. Readers must still be settled within the deadline, the capture reported
// incomplete, and what was written before kept.
func TestRunSettlesWhenEscapedDescendantHoldsPipes(t *testing.T) {
	r := Run(context.Background(), helperRequest(t, "escape"))
	pid, err := strconv.Atoi(strings.TrimSpace(r.Stdout))
	if err == nil {
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	} else {
		t.Fatalf("grandchild pid not in stdout: %+v", r)
	}
	if r.ReturnCode == nil || *r.ReturnCode != 0 || !r.ExecutionStarted {
		t.Fatalf("receipt %+v", r)
	}
	if !r.OutputCaptureSettled || r.OutputCaptureComplete || r.StdoutWhole() {
		t.Errorf("settled=%v complete=%v; want settled and incomplete", r.OutputCaptureSettled, r.OutputCaptureComplete)
	}
}

func TestRunSignalReturnCode(t *testing.T) {
	// sh kills itself; the receipt follows the subprocess convention (-signal).
	sh := "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		t.Skip("no /bin/sh")
	}
	r := Run(context.Background(), Request{Argv: []string{sh, "-c", "kill -TERM $$"}, Dir: t.TempDir()})
	if r.ReturnCode == nil || *r.ReturnCode != -int(syscall.SIGTERM) || r.Succeeded {
		t.Errorf("receipt %+v", r)
	}
}

func TestLaunchStdioIsNullDevice(t *testing.T) {
	req := helperRequest(t, "nullcheck")
	report := filepath.Join(req.Dir, "report")
	req.Argv = append(req.Argv, report)
	l, err := Launch(req)
	if err != nil {
		t.Fatal(err)
	}
	<-l.Done
	b, err := os.ReadFile(report)
	if err != nil || string(b) != "nnn" {
		t.Errorf("stdio of launched child: %q %v (want nnn: stdin, stdout, stderr on the null device)", b, err)
	}
}

func TestSystemBinaryNamesPlatform(t *testing.T) {
	p, err := SystemBinary(`WindowsPowerShell\v1.0\powershell.exe`)
	if err == nil || p != "" {
		t.Fatalf("SystemBinary off Windows = %q, %v", p, err)
	}
	want := "requires Windows; this is " + runtimeGOOS()
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
}

// TestKillTreeWithoutKnownExit: polling on Unix never knows a running child's exit
// code (it would have to reap), and killTree must still kill it.
func TestKillTreeWithoutKnownExit(t *testing.T) {
	req := helperRequest(t, "hang")
	cmd := &exec.Cmd{Path: req.Argv[0], Args: req.Argv, Dir: req.Dir, Env: req.Env}
	p, _, err := startContained(cmd, &prepared{})
	if err != nil {
		t.Fatal(err)
	}
	if _, known := p.poll(); known {
		t.Fatal("poll knows the exit code of a running child")
	}
	p.killTree()
	rc, o, err := p.wait(nil, time.Minute)
	if o != waitExited || err != nil || rc != -int(syscall.SIGKILL) {
		t.Errorf("after killTree: rc=%d outcome=%d err=%v; want -9, exited", rc, o, err)
	}
	if code, known := p.poll(); !known || code != rc {
		t.Errorf("poll after exit = %d, %v", code, known)
	}
}

// TestRunCancelEndsPromptlyDespiteEscapedPipeHolder: after a cancellation a descendant
// outside the group keeps both pipes open. The readers must get only the grace period,
// not the normal settle deadlines, which are set to an hour here: a runner that used
// them would hang this test until go test gives up.
func TestRunCancelEndsPromptlyDespiteEscapedPipeHolder(t *testing.T) {
	addr, pids := notifications(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		pid := <-pids
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
		cancel()
	}()
	tm := defaultTiming
	tm.settle, tm.cancelSettle = time.Hour, time.Hour
	tm.cancelGrace, tm.cancelJoin = 50*time.Millisecond, time.Second
	r := run(ctx, helperRequest(t, "escapehang", addr), tm)
	if !r.Cancelled || !r.ExecutionStarted || r.Succeeded {
		t.Fatalf("receipt %+v", r)
	}
	if !r.OutputCaptureSettled || r.OutputCaptureComplete {
		t.Errorf("settled=%v complete=%v; want the readers stopped and the capture incomplete", r.OutputCaptureSettled, r.OutputCaptureComplete)
	}
}
