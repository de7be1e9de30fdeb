// Package tooldiscover is the tool_discover tool.
package tooldiscover

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of tool_discover.
type In struct {
	Category string `json:"category,omitempty" jsonschema:"enum=all,enum=runtimes,enum=editors,enum=package_managers,enum=vcs,default=all,description=Which group of tools to discover."`
}

// Out is the result of tool_discover.
type Out struct {
	runtime.Status
}

// Tool is the tool_discover tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "tool_discover",
	Order:       2,
	Title:       "Discover tools",
	Description: "Find developer tools on PATH (runtimes, editors, package managers, version control) and report each one's absolute path and version. Version probes run the tool with its version flag; GUI editors are never launched.",
	Annotations: runtime.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
	ProjectArg:  "",
	Classify:    classify,
	Handle:      handle,
})

func init() { runtime.Register(Tool) }

func classify(a runtime.Args) runtime.Class {
	return runtime.ApprovalRequired
}

func handle(_ context.Context, _ *runtime.Env, _ In) (Out, error) {
	return Out{Status: runtime.Status{Status: "unavailable", Error: "tool_discover is " + runtime.NotImplementedSuffix}}, nil
}
