package proc

import (
	"context"
	"os"
	"os/exec"
)

// Exec is the real Runner.
type Exec struct{}

var _ Runner = Exec{}

// Run is the package-level Run.
func (Exec) Run(ctx context.Context, req Request) Receipt { return Run(ctx, req) }

// Run starts req.Argv (sealed to its identity), waits for it within the timeout,
// terminates the whole process tree on timeout or cancellation of ctx, and returns the
// receipt (§7.3). It never panics on process errors and never returns a Go error:
// everything is in the receipt.
func Run(ctx context.Context, req Request) Receipt {
	return run(ctx, req, defaultTiming)
}

func run(ctx context.Context, req Request, tm timing) Receipt {
	argv := append([]string(nil), req.Argv...)
	if err := ctx.Err(); err != nil {
		return *refusal(argv, "Process run was cancelled before start: %v", context.Cause(ctx))
	}
	p, refused := prepare(req)
	if refused != nil {
		return *refused
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		p.release()
		return *refusal(argv, "Process could not be started: stdout pipe: %v", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		p.release()
		outR.Close()
		outW.Close()
		return *refusal(argv, "Process could not be started: stderr pipe: %v", err)
	}
	cmd := &exec.Cmd{
		Path:   p.path,
		Args:   p.args,
		Dir:    req.Dir,
		Env:    req.Env,
		Stdin:  nil, // the null device: a child can never read the server's stdin
		Stdout: outW,
		Stderr: errW,
	}
	child, err := startContained(cmd)
	p.release() // the child exists (or never will): the seals have done their job
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return *refusal(argv, "Process could not be started: %v", err)
	}
	defer child.close()

	out := startStream(outR, limitOr(req.StdoutLimit, DefaultStdoutLimit))
	errs := startStream(errR, limitOr(req.StderrLimit, DefaultStderrLimit))
	lc := supervise(ctx, child, req.Timeout, tm)
	settled, complete := settle(tm, out, errs)
	return receipt(argv, lc, out, errs, settled, complete)
}

func limitOr(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// receipt assembles the §7.3 receipt of a started run.
func receipt(argv []string, lc lifecycle, out, errs *stream, settled, complete bool) Receipt {
	r := Receipt{
		Argv:                  argv,
		ExecutionStarted:      true,
		ReturnCode:            lc.rc,
		Stdout:                decodeText(out.tail.Bytes()),
		Stderr:                decodeText(errs.tail.Bytes()),
		StdoutTruncated:       out.tail.Truncated(),
		StderrTruncated:       errs.tail.Truncated(),
		OutputCaptureSettled:  settled,
		OutputCaptureComplete: settled && complete,
		TimedOut:              lc.timedOut,
		Error:                 lc.err,
		LifecycleError:        lc.lifeErr,
	}
	if r.Error == "" {
		r.Error = lc.lifeErr
	}
	r.Succeeded = lc.rc != nil && *lc.rc == 0 && !lc.timedOut && !lc.cancelled && lc.lifeErr == ""
	return r
}
