// Package packagesearch is the package_search tool.
package packagesearch

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of package_search.
type In struct {
	Query  string `json:"query" jsonschema:"required,maxLength=160,description=Search text (1-160 printable characters)."`
	Source string `json:"source,omitempty" jsonschema:"enum=winget,enum=chocolatey,enum=scoop,default=winget,description=Package manager to search."`
}

// Out is the result of package_search.
type Out struct {
	runtime.Status
}

// Tool is the package_search tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "package_search",
	Order:       5,
	Title:       "Search packages",
	Description: "Search WinGet, Chocolatey or Scoop for a package and return the matches with exact ids. Runs the package manager, which may contact its configured source; never installs.",
	Annotations: runtime.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: true},
	ProjectArg:  "",
	Classify:    classify,
	Handle:      handle,
})

func init() { runtime.Register(Tool) }

func classify(a runtime.Args) runtime.Class {
	return runtime.ApprovalRequired
}

func handle(_ context.Context, _ *runtime.Env, _ In) (Out, error) {
	return Out{Status: runtime.Status{Status: "unavailable", Error: "package_search is " + runtime.NotImplementedSuffix}}, nil
}
