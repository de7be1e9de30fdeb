//go:build !windows && !linux

package proc

import (
	"os/exec"
	"syscall"
)

// startContained starts cmd as the leader of a new process group. There is no
// parent-death signal here: a server killed outright leaves its children running
// (docs/process-runner.md §4.2).
func startContained(cmd *exec.Cmd, _ *prepared) (*osProcess, *Receipt, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return newOSProcess(cmd, tree{pgid: cmd.Process.Pid}), nil, nil
}

// startDetached starts a launched (not run) child in its own process group, so
// terminal signals aimed at the server do not reach it.
func startDetached(cmd *exec.Cmd, _ *prepared) (*Receipt, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return nil, cmd.Start()
}
