// Package sandboxrun is the sandbox_run tool.
package sandboxrun

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of sandbox_run.
type In struct {
	Command              string   `json:"command" jsonschema:"required,description=Command to run inside the isolated environment (sh -lc for WSL and Dev Container)."`
	IsolationRequirement string   `json:"isolation_requirement" jsonschema:"required,enum=linux_compatibility,enum=project_reproducibility,enum=untrusted_windows,description=Why isolation is needed; it fixes the backend."`
	Environment          string   `json:"environment,omitempty" jsonschema:"enum=auto,enum=wsl,enum=dev_container,enum=windows_sandbox,default=auto,description=Backend; auto picks the one the requirement maps to."`
	WorkspaceFolder      string   `json:"workspace_folder,omitempty" jsonschema:"description=Project directory (default: the active project)."`
	PayloadPaths         []string `json:"payload_paths,omitempty" jsonschema:"maxItems=1024,description=Workspace-relative files and folders to stage read-only into Windows Sandbox."`
	Execute              bool     `json:"execute,omitempty" jsonschema:"default=false,description=false returns the plan; true runs the reviewed plan."`
	runtime.Identity
}

// Out is the result of sandbox_run.
type Out struct {
	runtime.Status
}

// Tool is the sandbox_run tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "sandbox_run",
	Order:       7,
	Title:       "Run isolated",
	Description: "Plan or run a command in isolation: WSL for linux_compatibility, the project's Dev Container for project_reproducibility, Windows Sandbox for untrusted_windows (with a validated, read-only staged payload). A Sandbox launch proves only that it started.",
	Annotations: runtime.Annotations{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true},
	ProjectArg:  "workspace_folder",
	Classify:    classify,
	Handle:      handle,
})

func init() { runtime.Register(Tool) }

func classify(a runtime.Args) runtime.Class {
	if a.Bool("execute") {
		return runtime.ApprovalRequired
	}
	return runtime.ReadOnly
}

func handle(_ context.Context, _ *runtime.Env, _ In) (Out, error) {
	return Out{Status: runtime.Status{Status: "unavailable", Error: "sandbox_run is " + runtime.NotImplementedSuffix}}, nil
}
