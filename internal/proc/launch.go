package proc

// Launched is a process started by Launch and left running.
type Launched struct {
	PID int
	// Done is closed when the process has exited (a goroutine waits for it).
	Done <-chan struct{}
}

// LaunchError is a Launch refusal or spawn failure. Receipt has the same fields a Run
// refusal would: IdentityMismatch/RuntimeIdentityMismatch tell a stale identity apart
// from a failure to spawn, and ExecutionStarted is always false.
type LaunchError struct {
	Receipt Receipt
}

func (e *LaunchError) Error() string { return e.Receipt.Error }

// Launch starts req.Argv sealed exactly like Run, with stdin, stdout and stderr all on
// the null device (nothing can reach the server's JSON-RPC stream), and does not wait
// for it: it is for interactive programs such as Windows Sandbox. The child is put in
// its own process group but not in a kill-on-close job, so it outlives the call and the
// caller's cleanup goroutine decides what happens when Done closes. Timeout and the
// output limits of req are ignored.
func Launch(req Request) (*Launched, error) {
	argv := append([]string(nil), req.Argv...)
	p, refused := prepare(req)
	if refused != nil {
		return nil, &LaunchError{Receipt: *refused}
	}
	cmd := p.command() // nil Stdout/Stderr: os/exec connects them to the null device too
	refused, err := startDetached(cmd, p)
	p.release()
	if refused != nil {
		return nil, &LaunchError{Receipt: *refused}
	}
	if err != nil {
		return nil, &LaunchError{Receipt: *refusal(argv, "Process could not be started: %v", err)}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = cmd.Wait()
	}()
	return &Launched{PID: cmd.Process.Pid, Done: done}, nil
}
