// Package proc owns process creation: it is the only package that may import os/exec
// (monopoly_test.go enforces this for the whole module). docs/process-runner.md is its
// contract; comments here cite it by section.
//
// Every child gets the null device as stdin, an explicit absolute argv[0] (never a
// shell), an explicit working directory, bounded tails of stdout/stderr, a timeout and
// whole-tree termination (a process group plus a parent-death signal on Linux, a
// process group on macOS, a kill-on-close Job Object on Windows). An executable is bound
// to the identity reviewed in a plan: the runner starts exactly the bytes it checked or
// refuses (docs/process-runner.md §3).
//
// It must never interpret a command string, consult the cwd or PATHEXT when resolving a
// bare name, run .bat/.cmd files, or let a child read the server's stdin.
package proc

import (
	"context"
	"os"
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

// Identity kinds (docs/process-runner.md §3).
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
	// DirHandle, when set, is an open directory that becomes the child's working
	// directory itself, whatever path names it by now; Dir is then ignored. The caller
	// keeps it open until Run or Launch returns (docs/process-runner.md §5).
	DirHandle *os.File
	// Timeout defaults to DefaultTimeout when zero.
	Timeout time.Duration
	// StdoutLimit/StderrLimit are tail sizes in bytes; zero means the default.
	StdoutLimit, StderrLimit int
	// Expected, when set, seals the run to this identity: a mismatch refuses to start.
	// When nil nothing is compared, but the file that was checked is still the one
	// started wherever the platform allows it (docs/process-runner.md §3.1).
	Expected *Identity
	// Env is the child's environment; nil inherits the parent's. On Unix PWD is always
	// set to the child's working directory.
	Env []string
	// OnProgress, when set, is called about every ProgressInterval while the child runs,
	// from one goroutine at a time and never after Run returns; it must not block
	// (docs/process-runner.md §6). Launch ignores it.
	OnProgress func(Progress)
	// ProgressInterval defaults to DefaultProgressInterval when zero and is at least
	// MinProgressInterval.
	ProgressInterval time.Duration
}

// Progress is what a run has produced so far.
type Progress struct {
	Elapsed                  time.Duration // since the child started
	StdoutBytes, StderrBytes int64         // bytes read from each stream, not the tails
	// Tail is the latest line of output (the stream written last), at most
	// ProgressTailLimit bytes of valid UTF-8 with control characters removed.
	Tail string
}

// Progress defaults.
const (
	DefaultProgressInterval = time.Second
	MinProgressInterval     = 100 * time.Millisecond
	ProgressTailLimit       = 200
)

// Receipt is the evidence of one run (docs/process-runner.md §8). Field names are the
// JSON contract.
type Receipt struct {
	Succeeded             bool     `json:"succeeded"`
	ReturnCode            *int     `json:"returncode"`
	Stdout                string   `json:"stdout"`
	Stderr                string   `json:"stderr"`
	Argv                  []string `json:"argv"`
	ExecutionStarted      bool     `json:"execution_started"`
	OutputCaptureComplete bool     `json:"output_capture_complete"`
	OutputCaptureSettled  bool     `json:"output_capture_settled"`
	StdoutTruncated       bool     `json:"stdout_truncated"`
	StderrTruncated       bool     `json:"stderr_truncated"`
	TimedOut              bool     `json:"timed_out,omitempty"`
	// Cancelled: the caller's context ended the run (before or after the start); the
	// outcome of the program is unknown, not a failure.
	Cancelled               bool   `json:"cancelled,omitempty"`
	Error                   string `json:"error,omitempty"`
	LifecycleError          string `json:"lifecycle_error,omitempty"`
	IdentityMismatch        bool   `json:"identity_mismatch,omitempty"`
	RuntimeIdentityMismatch bool   `json:"runtime_identity_mismatch,omitempty"`
	IdentityInvalid         bool   `json:"identity_invalid,omitempty"`
	IdentityUnavailable     bool   `json:"identity_unavailable,omitempty"`
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

// Resolver turns bare tool names into absolute executables (docs/process-runner.md §2).
type Resolver interface {
	Resolve(name string) (string, bool)
}
