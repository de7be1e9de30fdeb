package proc

import (
	"errors"
	"os/exec"
	"time"
)

// osProcess is a started, contained child. One goroutine waits for it (and, once it
// has exited, kills whatever is left of its tree before reaping it); wait, poll and
// killTree only observe that goroutine's result.
type osProcess struct {
	cmd  *exec.Cmd
	tree tree
	done chan struct{} // closed once the waiter has returned
	rc   int
	err  error // non-nil when waiting itself failed (not a non-zero exit)
}

func (p *osProcess) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *osProcess) wait(stop <-chan struct{}, d time.Duration) (int, waitOutcome, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		if p.err != nil {
			return 0, waitFailed, p.err
		}
		return p.rc, waitExited, nil
	case <-stop:
		return 0, waitCancelled, nil
	case <-t.C:
		return 0, waitTimedOut, nil
	}
}

func (p *osProcess) poll() (int, bool) {
	if p.exited() && p.err == nil {
		return p.rc, true
	}
	return p.tree.pollExit()
}

func (p *osProcess) killTree() { p.tree.kill(p) }

// close releases the containment once the waiter is finished with it.
func (p *osProcess) close() {
	go func() {
		<-p.done
		p.tree.close()
	}()
}

// waitCmd waits for cmd and converts the result: an exit status (however non-zero)
// is a return code; anything else is a failure to observe the process.
func waitCmd(cmd *exec.Cmd) (int, error) {
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return 0, err
	}
	if cmd.ProcessState == nil {
		return 0, errors.New("process state unavailable after wait")
	}
	return exitCode(cmd.ProcessState), nil
}
