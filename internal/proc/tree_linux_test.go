//go:build linux

package proc

import (
	"context"
	"strconv"
	"strings"
	"testing"

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
