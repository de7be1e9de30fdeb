// Package capabilityrun is the capability_run tool.
package capabilityrun

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of capability_run.
type In struct {
	Capability string   `json:"capability" jsonschema:"required,maxLength=256,description=Capability id from the catalog."`
	ExtraArgs  []string `json:"extra_args,omitempty" jsonschema:"maxItems=128,description=Extra arguments appended to the argv as separate elements (never shell-joined)."`
	Cwd        string   `json:"cwd,omitempty" jsonschema:"description=Project directory to run in (default: the active project)."`
	Execute    bool     `json:"execute,omitempty" jsonschema:"default=false,description=false returns the plan; true runs the reviewed plan."`
	runtime.Identity
	TimeoutSeconds int `json:"timeout_seconds,omitempty" jsonschema:"minimum=1,maximum=600,default=120,description=Timeout in seconds."`
}

// Out is the result of capability_run.
type Out struct {
	runtime.Status
}

// Tool is the capability_run tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "capability_run",
	Order:       3,
	Title:       "Run capability",
	Description: "Plan or run a capability from the catalog (capabilities.yaml). execute:false returns the exact argv, the absolute executable and its SHA-256 identity for review; execute:true runs it only when the reviewed identity is echoed back unchanged. Forbidden capabilities are blocked; extra_args make a call approval-required.",
	Annotations: runtime.Annotations{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true},
	ProjectArg:  "cwd",
	Classify:    classify,
	Handle:      handle,
})

func init() { runtime.Register(Tool) }

func classify(a runtime.Args) runtime.Class {
	if !a.Bool("execute") {
		return runtime.ReadOnly
	}
	return runtime.ApprovalRequired
}

func handle(_ context.Context, _ *runtime.Env, _ In) (Out, error) {
	return Out{Status: runtime.Status{Status: "unavailable", Error: "capability_run is " + runtime.NotImplementedSuffix}}, nil
}
