// Package progresstest is test support for tools that run a process through the
// bounded runner: it checks that a tool hands the runner's progress on to the call's
// progress sink (env.Progress) as internal/plan.Progress promises — every report the
// runner makes while the child runs reaches the sink with its elapsed time and the
// child's latest output line ("running" before there is any), and a call nobody
// watches asks the runner for no reports at all, so no ticker starts.
//
// It never starts a process: Runner stands in for proc.Run. Only tests import it.
package progresstest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// Case is one run: whether the call is watched (env.Progress set), what the runner
// reports while the child runs, and what the sink must hear.
type Case struct {
	Name  string
	Watch bool
	Steps []proc.Progress
	Want  []tools.Progress
}

// Cases are the runs every such tool is checked with.
func Cases() []Case {
	steps := []proc.Progress{
		{Elapsed: time.Second},
		{Elapsed: 2 * time.Second, StdoutBytes: 40, Tail: "Downloading 40%"},
		{Elapsed: 3 * time.Second, StdoutBytes: 60, StderrBytes: 12, Tail: "warning: retrying"},
	}
	return []Case{
		{Name: "watched", Watch: true, Steps: steps, Want: []tools.Progress{
			{Elapsed: time.Second, Message: "running"},
			{Elapsed: 2 * time.Second, Message: "Downloading 40%"},
			{Elapsed: 3 * time.Second, Message: "warning: retrying"},
		}},
		{Name: "watched, no output yet", Watch: true, Steps: steps[:1], Want: []tools.Progress{
			{Elapsed: time.Second, Message: "running"},
		}},
		{Name: "unwatched", Steps: steps},
	}
}

// Recorder is a progress sink that remembers every report. The zero value is ready.
type Recorder struct {
	mu    sync.Mutex
	got   []tools.Progress
	first chan struct{} // closed at the first report
}

// Report is the sink: set env.Progress to it.
func (r *Recorder) Report(p tools.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, p)
	if len(r.got) == 1 {
		close(r.firstLocked())
	}
}

// First is closed once the sink has heard its first report, for a fake process that
// must wait until progress has been reported while it still runs.
func (r *Recorder) First() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.firstLocked()
}

func (r *Recorder) firstLocked() chan struct{} {
	if r.first == nil {
		r.first = make(chan struct{})
	}
	return r.first
}

// ResolveTo is a proc.Resolver that resolves every name to the one path.
type ResolveTo string

// Resolve implements proc.Resolver.
func (p ResolveTo) Resolve(string) (string, bool) { return string(p), true }

// Got is what the sink heard, in order.
func (r *Recorder) Got() []tools.Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tools.Progress(nil), r.got...)
}

// Runner is a fake of proc.Run. Like the real runner it calls the request's
// OnProgress, if set, with each step in order while the "child" runs — before Run
// returns — and then returns Receipt with the request's argv.
type Runner struct {
	Steps   []proc.Progress
	Receipt proc.Receipt

	mu      sync.Mutex
	runs    int
	watched int
}

// Run is the fake proc.Run.
func (r *Runner) Run(_ context.Context, req proc.Request) proc.Receipt {
	r.mu.Lock()
	r.runs++
	if req.OnProgress != nil {
		r.watched++
	}
	r.mu.Unlock()
	if req.OnProgress != nil {
		for _, p := range r.Steps {
			req.OnProgress(p)
		}
	}
	rc := r.Receipt
	rc.Argv = req.Argv
	return rc
}

// Completed is the receipt of a run that exited 0 with its output captured whole.
func Completed(stdout string) proc.Receipt {
	zero := 0
	return proc.Receipt{Succeeded: true, ReturnCode: &zero, Stdout: stdout, ExecutionStarted: true,
		OutputCaptureComplete: true, OutputCaptureSettled: true}
}

// New returns the runner and, for a watched case, the sink to set as env.Progress
// (nil for an unwatched one).
func (c Case) New() (*Runner, *Recorder, func(tools.Progress)) {
	run := &Runner{Steps: c.Steps, Receipt: Completed("")}
	rec := &Recorder{}
	if !c.Watch {
		return run, rec, nil
	}
	return run, rec, rec.Report
}

// Check asserts that the tool ran the process once, asked for reports exactly when
// watched, and that the sink heard c.Want.
func (c Case) Check(t testing.TB, run *Runner, rec *Recorder) {
	t.Helper()
	run.mu.Lock()
	runs, watched := run.runs, run.watched
	run.mu.Unlock()
	if runs != 1 {
		t.Fatalf("the runner ran %d times, want once", runs)
	}
	if want := c.Watch; (watched == 1) != want {
		t.Errorf("request carried OnProgress: %v, want %v (set exactly when the call is watched)", watched == 1, want)
	}
	if d := cmp.Diff(c.Want, rec.Got()); d != "" {
		t.Errorf("progress the sink heard (-want +got):\n%s", d)
	}
}
