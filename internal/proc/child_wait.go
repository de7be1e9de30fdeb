//go:build !linux

package proc

import "os/exec"

// newOSProcess starts the goroutine that waits for cmd (Linux starts its own, on the
// thread that created the child: start_linux.go).
func newOSProcess(cmd *exec.Cmd, t tree) *osProcess {
	p := &osProcess{cmd: cmd, tree: t, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.rc, p.err = t.waitAndSweep(cmd)
	}()
	return p
}
