package plan

import (
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// Receipt is the runner receipt (tools.md §7.3) as a tool result merges it. It leaves
// out argv (the result carries its own, the same list), and execution_started and
// error, which every result already has through runtime.Status; Merge fills those.
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
		TimedOut: r.TimedOut, LifecycleError: r.LifecycleError,
		IdentityMismatch: r.IdentityMismatch, RuntimeIdentityMismatch: r.RuntimeIdentityMismatch,
		IdentityInvalid: r.IdentityInvalid, IdentityUnavailable: r.IdentityUnavailable,
	}
}

// Merge is the status of a result that ran r, merged the way the reference merges
// result maps: the receipt's error and execution_started, then a non-empty err over it.
func Merge(status, err string, r proc.Receipt) tools.Status {
	s := tools.Status{Status: status, Error: r.Error, ExecutionStarted: r.ExecutionStarted}
	if err != "" {
		s.Error = err
	}
	return s
}
