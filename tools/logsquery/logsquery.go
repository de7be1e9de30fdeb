// Package logsquery is the logs_query tool.
package logsquery

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of logs_query.
type In struct {
	LastN  int    `json:"last_n,omitempty" jsonschema:"minimum=1,maximum=200,default=20,description=How many of the newest matching events to return."`
	Filter string `json:"filter,omitempty" jsonschema:"enum=all,enum=failures,enum=installs,enum=sandbox,enum=approvals,default=all,description=Which events to return."`
}

// Out is the result of logs_query.
type Out struct {
	runtime.Status
}

// Tool is the logs_query tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "logs_query",
	Order:       9,
	Title:       "Query audit log",
	Description: "Return recent audit events (metadata only: tool, safety class, decision, outcome) from the bounded audit log, oldest segment first.",
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
	return Out{Status: runtime.Status{Status: "unavailable", Error: "logs_query is " + runtime.NotImplementedSuffix}}, nil
}
