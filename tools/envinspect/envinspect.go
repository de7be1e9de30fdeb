// Package envinspect is the env_inspect tool: the canonical tri-state environment
// snapshot of tools/internal/discovery, served from the data-dir cache when it is fresh.
//
// It must never return a shape other than {status, snapshot, execution_started}:
// anything unexpected becomes a degraded fallback snapshot naming the cause. The
// snapshot is its summary unless the call asks for detail "full" (summary.go).
package envinspect

import (
	"context"
	"fmt"
	"time"

	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/internal/policy/inforce"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
)

// In is the input of env_inspect.
type In struct {
	ForceRefresh bool `json:"force_refresh,omitempty"`
	// Detail "full" returns the canonical snapshot (docs/discovery.md), derived keys
	// included; "compact" (the default) its summary, without what another key says.
	Detail string `json:"detail,omitempty" jsonschema:"enum=compact,enum=full"`
}

// Out is the result of env_inspect: status is "ok" when snapshot.success is true,
// else "degraded"; execution_started is true only when this call launched a process
// (false on a cache hit and after a launch refusal).
type Out struct {
	tools.Status
	Snapshot *discovery.Snapshot `json:"snapshot,omitempty"`
	// Policy is present only when a managed policy is in force (docs/policy.md, "What
	// is shown"), so a machine without one pays no byte for it.
	Policy *Policy `json:"policy,omitempty"`
	// full: the snapshot is encoded whole, else as its summary (summary.go).
	full bool
}

// Policy says where the managed policy in force was read, the SHA-256 of what was
// read, and why it cannot be used when it does not parse.
type Policy struct {
	Source string `json:"source"`
	SHA256 string `json:"sha256,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Statuses are the words of Out's status.
var Statuses = []string{"ok", "degraded"}

// Deps are the authorities env_inspect consults; tests pass fakes.
type Deps struct {
	// Discover produces (or reads from the cache) the snapshot.
	Discover func(ctx context.Context, opts discovery.Options, force bool) discovery.Result
	// Now is the clock of the hard-failure fallback.
	Now func() time.Time
	// Policy is the managed policy in force (nil: none).
	Policy func() *policy.State
}

// DefaultDeps are the real discovery and clock.
func DefaultDeps() Deps {
	return Deps{Discover: discovery.Discover, Now: time.Now, Policy: inforce.Current}
}

// New returns the env_inspect tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "env_inspect",
		Order:       1,
		Title:       "Inspect environment",
		Description: "This machine's development facts: OS, CPU, memory, Hyper-V, WSL, Windows Sandbox, Dev Drive, Docker, package managers, runtimes, editors; null = unknown. Cached 5 min.",
		Annotations: tools.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
		Classes:     tools.Classification{Base: tools.ReadOnly},
		// A cold snapshot runs the platform probes (PowerShell, vswhere) on Windows.
		Starts:   tools.AlwaysCond,
		Statuses: Statuses,
		Handle: func(ctx context.Context, env *tools.Env, in In) (Out, error) {
			return d.handle(ctx, env, in)
		},
	})
}

func init() { tools.Register(New(DefaultDeps())) }

func (d Deps) handle(ctx context.Context, env *tools.Env, in In) (out Out, _ error) {
	defer func() {
		if r := recover(); r != nil {
			out = fromResult(discovery.Result{Snapshot: discovery.Fallback(d.Now(), fmt.Sprintf("Unexpected discovery failure: %v", r))})
		}
		out.full = in.Detail == "full"
		out.Policy = d.policy()
	}()
	res := d.Discover(ctx, discovery.Options{DataDir: env.DataDir, Getenv: env.Lookup}, in.ForceRefresh)
	return fromResult(res), nil
}

func fromResult(r discovery.Result) Out {
	s := r.Snapshot
	return Out{Status: tools.Status{Status: r.Status(), ExecutionStarted: r.ExecutionStarted}, Snapshot: &s}
}

// policy is the result's policy member, nil when no policy is in force.
func (d Deps) policy() *Policy {
	if d.Policy == nil {
		return nil
	}
	st := d.Policy()
	if !st.InForce() {
		return nil
	}
	p := &Policy{Source: st.Source, SHA256: st.SHA256}
	if st.Err != nil {
		p.Error = st.Err.Error()
	}
	return p
}
