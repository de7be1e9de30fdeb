package proc

import (
	"context"
	"os"
	"slices"
	"sync/atomic"
)

// Exec is the real Runner.
type Exec struct{}

var _ Runner = Exec{}

// Run is the package-level Run.
func (Exec) Run(ctx context.Context, req Request) Receipt { return Run(ctx, req) }

// Run starts req.Argv (sealed to its identity), waits for it within the timeout,
// terminates the whole process tree on timeout or cancellation of ctx, and returns the
// receipt (docs/process-runner.md §8). It never panics on process errors and never
// returns a Go error: everything is in the receipt.
func Run(ctx context.Context, req Request) Receipt {
	return run(ctx, req, defaultTiming)
}

func run(ctx context.Context, req Request, tm timing) Receipt {
	argv := slices.Clone(req.Argv)
	if err := ctx.Err(); err != nil {
		return cancelledBeforeStart(argv, ctx)
	}
	p, refused := prepare(req)
	if refused != nil {
		return *refused
	}
	if ctx.Err() != nil {
		p.release()
		return cancelledBeforeStart(argv, ctx)
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
	cmd := p.command()
	cmd.Stdout, cmd.Stderr = outW, errW
	child, refused, err := startContained(cmd, p)
	p.release() // the child exists (or never will): the seals have done their job
	outW.Close()
	errW.Close()
	if refused != nil || err != nil {
		outR.Close()
		errR.Close()
		if refused != nil {
			return *refused
		}
		return *refusal(argv, "Process could not be started: %v", err)
	}
	defer child.close()
	start := tm.now()

	var seenOut, seenErr *seenOutput
	if req.OnProgress != nil {
		var clock atomic.Uint64
		seenOut, seenErr = newSeenOutput(&clock), newSeenOutput(&clock)
	}
	out := startStream(outR, limitOr(req.StdoutLimit, DefaultStdoutLimit), seenOut)
	errs := startStream(errR, limitOr(req.StderrLimit, DefaultStderrLimit), seenErr)
	rep := startReporter(req.OnProgress, req.ProgressInterval, tm, start, seenOut, seenErr)
	lc := supervise(ctx, child, req.Timeout, tm)
	rep.stop()
	st := tm
	if lc.cancelled {
		// A cancelled run ends promptly: the readers share what is left of the grace
		// period, then their pipes are closed (docs/process-runner.md §7).
		st.settle = max(0, tm.cancelGrace-tm.now().Sub(lc.cancelledAt))
		st.cancelSettle = tm.cancelJoin
	}
	settled, complete := settle(st, out, errs)
	return receipt(argv, lc, out, errs, settled, complete)
}

// cancelledBeforeStart is the refusal of a run whose context ended before the child
// was created: nothing ran, and the outcome is unknown rather than a failure.
func cancelledBeforeStart(argv []string, ctx context.Context) Receipt {
	r := refusal(argv, "Process run was cancelled before start: %v", context.Cause(ctx))
	r.Cancelled = true
	return *r
}

func limitOr(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// receipt assembles the receipt of a started run (docs/process-runner.md §8).
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
		Cancelled:             lc.cancelled,
		Error:                 lc.err,
		LifecycleError:        lc.lifeErr,
	}
	if r.Error == "" {
		r.Error = lc.lifeErr
	}
	r.Succeeded = lc.rc != nil && *lc.rc == 0 && !lc.timedOut && !lc.cancelled && lc.lifeErr == ""
	return r
}
