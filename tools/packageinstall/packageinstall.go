// Package packageinstall is the package_install tool.
package packageinstall

import (
	"context"

	"github.com/windows-dev-agent/wda/runtime"
)

// In is the input of package_install.
type In struct {
	PackageID string `json:"package_id" jsonschema:"required,maxLength=256,description=Exact package id (letters, digits, . _ + -)."`
	Source    string `json:"source,omitempty" jsonschema:"enum=winget,enum=chocolatey,enum=scoop,default=winget,description=Package manager to install with."`
	Execute   bool   `json:"execute,omitempty" jsonschema:"default=false,description=false returns the plan; true runs the reviewed plan."`
	runtime.Identity
}

// Out is the result of package_install.
type Out struct {
	runtime.Status
}

// Tool is the package_install tool definition.
var Tool = runtime.Define(runtime.Def[In, Out]{
	Name:        "package_install",
	Order:       6,
	Title:       "Install package",
	Description: "Plan or run a package install with WinGet (bound to the winget source, non-interactive), Chocolatey or Scoop. execute:false returns the argv and executable identity for review; execute:true runs exactly that plan and invalidates the environment cache. Installer exit 0 is not proof the package works: verify afterwards.",
	Annotations: runtime.Annotations{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true},
	ProjectArg:  "",
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
	return Out{Status: runtime.Status{Status: "unavailable", Error: "package_install is " + runtime.NotImplementedSuffix}}, nil
}
