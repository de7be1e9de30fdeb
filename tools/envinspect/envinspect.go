// Package envinspect is the env_inspect tool: the canonical tri-state environment
// snapshot of tools/internal/discovery, served from the data-dir cache when it is fresh.
//
// It must never return a shape other than {status, snapshot, execution_started}:
// anything unexpected becomes a degraded fallback snapshot naming the cause.
package envinspect

import (
	"context"
	"fmt"
	"time"

	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
)

// In is the input of env_inspect.
type In struct {
	ForceRefresh bool `json:"force_refresh,omitempty" jsonschema:"default=false,description=Skip the five-minute cache and probe again."`
}

// Out is the result of env_inspect: status is "ok" when snapshot.success is true,
// else "degraded"; execution_started is true only when this call launched a process
// (false on a cache hit and after a launch refusal).
type Out struct {
	tools.Status
	Snapshot *discovery.Snapshot `json:"snapshot,omitempty"`
}

// Tool is the env_inspect tool definition.
var Tool = tools.Define(tools.Def[In, Out]{
	Name:        "env_inspect",
	Order:       1,
	Title:       "Inspect environment",
	Description: "Report the Windows development environment as a canonical tri-state snapshot (true = observed, false = observed absent, null = not established): OS, virtualization (Hyper-V, WSL, Windows Sandbox, Dev Drive), package managers, runtimes, editors. Cached for five minutes; force_refresh skips the cache.",
	Annotations: tools.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
	ProjectArg:  "",
	Classify:    classify,
	Handle:      handle,
})

func init() { tools.Register(Tool) }

func classify(a tools.Args) tools.Class {
	return tools.ReadOnly
}

// discover is the discovery entry point; tests replace it.
var discover = discovery.Discover

// now is the clock of the hard-failure fallback.
var now = time.Now

func handle(ctx context.Context, env *tools.Env, in In) (out Out, _ error) {
	defer func() {
		if r := recover(); r != nil {
			out = fromResult(discovery.Result{Snapshot: discovery.Fallback(now(), fmt.Sprintf("Unexpected discovery failure: %v", r))})
		}
	}()
	res := discover(ctx, discovery.Options{DataDir: env.DataDir, Getenv: env.Lookup}, in.ForceRefresh)
	return fromResult(res), nil
}

func fromResult(r discovery.Result) Out {
	s := r.Snapshot
	return Out{Status: tools.Status{Status: r.Status(), ExecutionStarted: r.ExecutionStarted}, Snapshot: &s}
}
