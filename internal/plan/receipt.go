package plan

import (
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// Receipt is the runner receipt (docs/process-runner.md) as a tool result merges it. It leaves
// out argv (the result carries its own, the same list), and execution_started and
// error, which every result already has through tools.Status; Merge fills those.
// Embed it as a pointer so results of calls that ran nothing carry none of it.
type Receipt struct {
	Succeeded               bool   `json:"succeeded"`
	ReturnCode              *int   `json:"returncode" jsonschema:"nullable"`
	Stdout                  string `json:"stdout"`
	Stderr                  string `json:"stderr"`
	OutputCaptureComplete   bool   `json:"output_capture_complete"`
	OutputCaptureSettled    bool   `json:"output_capture_settled"`
	StdoutTruncated         bool   `json:"stdout_truncated"`
	StderrTruncated         bool   `json:"stderr_truncated"`
	TimedOut                bool   `json:"timed_out,omitempty"`
	Cancelled               bool   `json:"cancelled,omitempty"`
	LifecycleError          string `json:"lifecycle_error,omitempty"`
	IdentityMismatch        bool   `json:"identity_mismatch,omitempty"`
	RuntimeIdentityMismatch bool   `json:"runtime_identity_mismatch,omitempty"`
	IdentityInvalid         bool   `json:"identity_invalid,omitempty"`
	IdentityUnavailable     bool   `json:"identity_unavailable,omitempty"`
}

// FromReceipt copies the merged fields of r.
func FromReceipt(r proc.Receipt) *Receipt {
	return &Receipt{
		Succeeded: r.Succeeded, ReturnCode: r.ReturnCode, Stdout: r.Stdout, Stderr: r.Stderr,
		OutputCaptureComplete: r.OutputCaptureComplete, OutputCaptureSettled: r.OutputCaptureSettled,
		StdoutTruncated: r.StdoutTruncated, StderrTruncated: r.StderrTruncated,
		TimedOut: r.TimedOut, Cancelled: r.Cancelled, LifecycleError: r.LifecycleError,
		IdentityMismatch: r.IdentityMismatch, RuntimeIdentityMismatch: r.RuntimeIdentityMismatch,
		IdentityInvalid: r.IdentityInvalid, IdentityUnavailable: r.IdentityUnavailable,
	}
}

// Merge is the status of a result that ran r: the receipt's error and execution_started,
// then a non-empty err over it (docs/tools/capability_run.md, "Output").
func Merge(status, err string, r proc.Receipt) tools.Status {
	s := tools.Status{Status: status, Error: r.Error, ExecutionStarted: r.ExecutionStarted}
	if err != "" {
		s.Error = err
	}
	return s
}

// RunStatus is the status word of a finished run of a plan-first tool: stale_plan when
// the sealed executable changed at spawn, cancelled when the call was cancelled (its
// effect is unknown: the run may have changed something before it was stopped),
// completed when it succeeded, failed otherwise.
func RunStatus(r proc.Receipt) string {
	switch {
	case ChangedAtSpawn(r):
		return tools.StatusStalePlan
	case r.Cancelled:
		return tools.StatusCancelled
	case r.Succeeded:
		return tools.StatusCompleted
	}
	return tools.StatusFailed
}

// Progress adapts a runner's progress to a tool's progress sink (nil stays nil, so a
// call nobody watches starts no ticker).
func Progress(sink func(tools.Progress)) func(proc.Progress) {
	if sink == nil {
		return nil
	}
	return func(p proc.Progress) {
		msg := p.Tail
		if msg == "" {
			msg = "running"
		}
		sink(tools.Progress{Elapsed: p.Elapsed, Message: msg})
	}
}
