// Package envinspect is the env_inspect tool.
package envinspect

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of env_inspect.
type In struct {
	ForceRefresh bool `json:"force_refresh,omitempty" jsonschema:"default=false,description=Skip the five-minute cache and probe again."`
}

// Out is the result of env_inspect.
type Out struct {
	runtime.Status
}

// Tool is the env_inspect tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "env_inspect",
	Order:       1,
	Title:       "Inspect environment",
	Description: "Report the Windows development environment as a canonical tri-state snapshot (true = observed, false = observed absent, null = not established): OS, virtualization (Hyper-V, WSL, Windows Sandbox, Dev Drive), package managers, runtimes, editors. Cached for five minutes; force_refresh skips the cache.",
	Annotations: runtime.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
	ProjectArg:  "",
	Classify:    classify,
	Handle:      handle,
})

func init() { runtime.Register(Tool) }

func classify(a runtime.Args) runtime.Class {
	return runtime.ReadOnly
}

func handle(_ context.Context, _ *runtime.Env, _ In) (Out, error) {
	return Out{Status: runtime.Status{Status: "unavailable", Error: "env_inspect is " + runtime.NotImplementedSuffix}}, nil
}
