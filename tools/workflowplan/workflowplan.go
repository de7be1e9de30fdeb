// Package workflowplan is the workflow_plan tool.
package workflowplan

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of workflow_plan.
type In struct {
	Task    string `json:"task" jsonschema:"required,description=What the user wants done."`
	Context string `json:"context,omitempty" jsonschema:"default=,description=Extra context that may carry route-changing words."`
	Cwd     string `json:"cwd,omitempty" jsonschema:"description=Project directory (default: the active project)."`
}

// Out is the result of workflow_plan.
type Out struct {
	runtime.Status
}

// Tool is the workflow_plan tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "workflow_plan",
	Order:       4,
	Title:       "Plan workflow",
	Description: "Route a development task to catalog capabilities with deterministic evidence (id and tag overlap), report every candidate and a four-phase plan (inspect, route, execute, verify). Never executes anything.",
	Annotations: runtime.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
	ProjectArg:  "cwd",
	Classify:    classify,
	Handle:      handle,
})

func init() { runtime.Register(Tool) }

func classify(a runtime.Args) runtime.Class {
	return runtime.ReadOnly
}

func handle(_ context.Context, _ *runtime.Env, _ In) (Out, error) {
	return Out{Status: runtime.Status{Status: "unavailable", Error: "workflow_plan is " + runtime.NotImplementedSuffix}}, nil
}
