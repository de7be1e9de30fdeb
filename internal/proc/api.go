// Package proc owns process creation: it is the only package that may import os/exec
// (monopoly_test.go enforces this for the whole module).
//
// Every child gets the null device as stdin, an explicit absolute argv[0] (never a
// shell), an explicit cwd, bounded tail buffers for stdout/stderr, a timeout and
// whole-tree termination (a process group on Unix, a kill-on-close Job Object on
// Windows). Executables are bound to the identity reviewed in a plan (SHA-256 of the
// file; on Windows also App Execution Alias reparse data and PowerShell scripts) and
// held share-read-only from check to spawn on Windows.
//
// It must never interpret a command string, consult the cwd or PATHEXT when resolving a
// bare name, or run .bat/.cmd files.
//
// Decisions where the reference is silent or differs (README "Deliberate differences"):
//   - Containment is the tree, not the process: on Windows the child is created
//     suspended, assigned to a fresh JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE job and only
//     then resumed, so no descendant can start outside it; on Unix it leads a new
//     process group. A timeout or a cancelled context terminates the job or group;
//     taskkill is never used. When the child exits normally, whatever is left of its
//     tree is terminated too (what closing a kill-on-close job does anyway), so
//     background descendants can neither outlive a run nor hold its pipes open.
//   - Descendants that escaped the tree (Unix setsid) cannot keep readers alive: after
//     a shared 2 s deadline the read ends are closed (on Windows os.File.Close cancels
//     the blocked ReadFile with CancelIoEx) and the capture is reported incomplete.
//   - Unix has no share modes: a seal there is an open descriptor whose bytes are
//     hashed right before the spawn, which narrows but cannot close the window.
//   - Windows children get CREATE_NO_WINDOW so a console program started by a
//     console-less server does not flash a window; Launch (for GUI programs such as
//     Windows Sandbox) gets only its own process group and is not in a job, so it
//     survives the call that started it.
//   - Return codes follow the subprocess convention: a Unix signal death is -signal.
package proc

import (
	"context"
	"time"
)

// Default output tails.
const (
	DefaultStdoutLimit = 8000
	DefaultStderrLimit = 4000
	DefaultTimeout     = 30 * time.Second
)

// IdentityKind is how an executable's identity was fingerprinted.
type IdentityKind string

// Identity kinds (tools.md §6.2).
const (
	KindFile              IdentityKind = "file"
	KindAppExecutionAlias IdentityKind = "app_execution_alias"
	KindPowerShellScript  IdentityKind = "powershell_script"
)

// Identity is an executable's reviewed identity. SHA256 is 64 lowercase hex characters.
type Identity struct {
	Kind   IdentityKind
	SHA256 string
}

// Request is one bounded run.
type Request struct {
	Argv []string // argv[0] must be absolute
	Dir  string   // working directory; "" means the runner's own cwd is NOT used: it is an error
	// Timeout defaults to DefaultTimeout when zero.
	Timeout time.Duration
	// StdoutLimit/StderrLimit are tail sizes in bytes; zero means the default.
	StdoutLimit, StderrLimit int
	// Expected, when set, seals the run to this identity: a mismatch refuses to start.
	// When nil the current identity is snapshotted and sealed anyway.
	Expected *Identity
	// Env is the child's environment; nil inherits the parent's.
	Env []string
}

// Receipt is the evidence of one run (tools.md §7.3). Field names are the JSON contract.
type Receipt struct {
	Succeeded               bool     `json:"succeeded"`
	ReturnCode              *int     `json:"returncode"`
	Stdout                  string   `json:"stdout"`
	Stderr                  string   `json:"stderr"`
	Argv                    []string `json:"argv"`
	ExecutionStarted        bool     `json:"execution_started"`
	OutputCaptureComplete   bool     `json:"output_capture_complete"`
	OutputCaptureSettled    bool     `json:"output_capture_settled"`
	StdoutTruncated         bool     `json:"stdout_truncated"`
	StderrTruncated         bool     `json:"stderr_truncated"`
	TimedOut                bool     `json:"timed_out,omitempty"`
	Error                   string   `json:"error,omitempty"`
	LifecycleError          string   `json:"lifecycle_error,omitempty"`
	IdentityMismatch        bool     `json:"identity_mismatch,omitempty"`
	RuntimeIdentityMismatch bool     `json:"runtime_identity_mismatch,omitempty"`
	IdentityInvalid         bool     `json:"identity_invalid,omitempty"`
	IdentityUnavailable     bool     `json:"identity_unavailable,omitempty"`
}

// StdoutWhole reports whether stdout may be used as evidence: the run succeeded in
// starting, capture completed and settled, and stdout was not truncated.
func (r Receipt) StdoutWhole() bool {
	return r.ExecutionStarted && r.OutputCaptureComplete && r.OutputCaptureSettled && !r.StdoutTruncated
}

// StderrWhole is StdoutWhole for stderr.
func (r Receipt) StderrWhole() bool {
	return r.ExecutionStarted && r.OutputCaptureComplete && r.OutputCaptureSettled && !r.StderrTruncated
}

// Runner is the small interface services depend on, so tests can substitute a fake
// that records argv without starting anything.
type Runner interface {
	Run(ctx context.Context, req Request) Receipt
}

// Resolver turns bare tool names into absolute executables (tools.md §7.1).
type Resolver interface {
	Resolve(name string) (string, bool)
}
