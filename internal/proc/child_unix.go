//go:build !windows

package proc

import (
	"os"
	"os/exec"
	"syscall"
)

// tree is the child's process group: Setpgid makes the child the leader of a new
// group, so kill(-pgid) reaches every descendant that did not leave it.
type tree struct{ pgid int }

// waitAndSweep waits for the leader to exit, kills the rest of its group (descendants
// must not outlive the run, like a kill-on-close Job Object), then reaps it. Where the
// platform can wait without reaping, the group is killed while the leader's pid is
// still reserved, so the group id cannot have been reused.
func (t tree) waitAndSweep(cmd *exec.Cmd) (int, error) {
	waitExitNoReap(cmd.Process.Pid)
	if reserveBeforeReap {
		t.killGroup()
	}
	rc, err := waitCmd(cmd)
	if !reserveBeforeReap {
		t.killGroup()
	}
	return rc, err
}

func (t tree) killGroup() { _ = syscall.Kill(-t.pgid, syscall.SIGKILL) }

// kill terminates the group and, unless it is known to have exited, the leader (by its
// pidfd-backed os.Process, which cannot hit a reused pid).
func (t tree) kill(p *osProcess) {
	if !p.exited() {
		// Once the waiter is done it has already swept the group itself.
		t.killGroup()
	}
	if _, known := p.poll(); !known {
		_ = p.cmd.Process.Kill()
	}
}

// pollExit has nothing to add to the waiter's result on Unix: polling would reap.
func (tree) pollExit() (int, bool) { return 0, false }

func (tree) close() {}

// exitCode follows the subprocess convention: a signal death is the negative signal.
func exitCode(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -int(ws.Signal())
	}
	return ps.ExitCode()
}
