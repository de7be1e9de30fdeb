package proc

import (
	"context"
	"strconv"
	"time"
)

// waitOutcome is how one bounded wait ended.
type waitOutcome int

const (
	waitExited    waitOutcome = iota // the process exited; rc is valid
	waitTimedOut                     // the wait's own duration elapsed
	waitCancelled                    // the stop channel closed
	waitFailed                       // observing the process failed; err says why
)

// process is what the supervisor needs from a started child. The OS implementation is
// in child*.go and start*.go; tests substitute fakes to drive the error paths of
// docs/process-runner.md §7.
type process interface {
	// wait blocks until the process exits, d elapses, or stop closes.
	wait(stop <-chan struct{}, d time.Duration) (rc int, o waitOutcome, err error)
	// poll reports the exit code if it is known; any error counts as "still running".
	poll() (rc int, known bool)
	// killTree terminates the process and all its descendants. It never fails loudly.
	killTree()
}

// timing holds the bounded waits of docs/process-runner.md §9 and the clock, so tests
// can shorten the waits and drive progress without sleeping.
type timing struct {
	minTimeout   time.Duration // a run's timeout is at least this
	postKill     time.Duration // wait after a tree kill
	settle       time.Duration // shared deadline for both readers
	cancelSettle time.Duration // further wait after cancelling blocked readers
	// cancelGrace bounds everything after a cancellation: the wait for the killed
	// child and the reader joins share it; then the read ends are closed and the
	// readers get cancelJoin more.
	cancelGrace time.Duration
	cancelJoin  time.Duration
	now         func() time.Time
	ticker      func(time.Duration) (<-chan time.Time, func())
}

var defaultTiming = timing{
	minTimeout:   time.Second,
	postKill:     5 * time.Second,
	settle:       2 * time.Second,
	cancelSettle: 2 * time.Second,
	cancelGrace:  2 * time.Second,
	cancelJoin:   500 * time.Millisecond,
	now:          time.Now,
	ticker: func(d time.Duration) (<-chan time.Time, func()) {
		t := time.NewTicker(d)
		return t.C, t.Stop
	},
}

// lifecycle is the supervisor's verdict about the process (not its output).
type lifecycle struct {
	rc          *int
	timedOut    bool
	cancelled   bool
	cancelledAt time.Time // when the cancellation was seen (the grace period's start)
	err         string    // timeout or cancellation message
	lifeErr     string    // lifecycle_error
}

// effectiveTimeout applies the default and the one-second floor.
func effectiveTimeout(d time.Duration, tm timing) time.Duration {
	if d == 0 {
		d = DefaultTimeout
	}
	return max(d, tm.minTimeout)
}

// timeoutMessage is "Process timed out after N seconds" with N in plain seconds.
func timeoutMessage(d time.Duration) string {
	return "Process timed out after " + strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " seconds"
}

// supervise waits for p within timeout, terminating the tree on timeout or
// cancellation, and recovers from observation errors by polling
// (docs/process-runner.md §7). Nothing it calls may panic out of it; every error
// becomes part of the verdict.
func supervise(ctx context.Context, p process, timeout time.Duration, tm timing) lifecycle {
	var lc lifecycle
	d := effectiveTimeout(timeout, tm)
	rc, o, err := p.wait(ctx.Done(), d)
	switch o {
	case waitExited:
		lc.rc = &rc
	case waitTimedOut, waitCancelled:
		after := tm.postKill
		if o == waitTimedOut {
			lc.timedOut = true
			lc.err = timeoutMessage(d)
		} else {
			lc.cancelled, lc.cancelledAt = true, tm.now()
			lc.err = "Process run was cancelled (" + context.Cause(ctx).Error() + "); the process tree was terminated"
			after = tm.cancelGrace
		}
		p.killTree()
		rc2, o2, err2 := p.wait(nil, after)
		lc.rc = afterCleanup(p, rc2, o2)
		if lc.rc == nil && o2 == waitFailed {
			lc.lifeErr = "Process lifecycle observation failed after timeout cleanup: " + err2.Error()
		}
	case waitFailed:
		if code, ok := p.poll(); ok {
			lc.rc = &code
			break
		}
		lc.lifeErr = "Process lifecycle observation failed after launch: " + err.Error()
		p.killTree()
		rc2, o2, _ := p.wait(nil, tm.postKill)
		lc.rc = afterCleanup(p, rc2, o2)
	}
	return lc
}

// afterCleanup takes the return code from the follow-up wait, else from a poll, else
// leaves it unknown (null).
func afterCleanup(p process, rc int, o waitOutcome) *int {
	if o == waitExited {
		return &rc
	}
	if code, ok := p.poll(); ok {
		return &code
	}
	return nil
}
