// Package packageinstall is the package_install tool: plan, then run, one exact package
// install, upgrade or uninstall (an exact version when asked) with WinGet (bound to the
// winget source, non-interactive, with the agreement flags each command accepts in the
// reviewed argv), Chocolatey or Scoop.
//
// execute:false returns the plan: argv (argv[0] the resolved absolute path), the
// executable and its identity. execute:true runs exactly that plan when the caller echoes
// executable and identity unchanged (internal/plan), invalidates the environment cache
// before the installer starts (and refuses to start it when that fails), and runs it
// sealed to the echoed identity for at most 600 s. The decision order is in
// docs/tools/package_install.md, "Decision order".
//
// It must never start an installer that was not planned and echoed, never start one
// before the cache is invalidated, and never report an installer's exit 0 as proof the
// package works (or is gone): every plan and result carries a verify hint naming the
// check to run next. A version is checked before anything runs: its characters for every
// manager, NuGet's form for Chocolatey, and whether the action takes one at all; whether
// the manager offers that version is the manager's to say when it runs, before it
// changes anything.
//
// Deliberate decisions (docs/tools/package_install.md, "Decisions"): the installer's
// working directory is the manager's own directory, never the project; the environment
// cache lives in env.DataDir (the data dir of this call's binding).
package packageinstall

import (
	"context"

	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/tools"
)

// In is the input of package_install.
type In struct {
	PackageID string `json:"package_id" jsonschema:"required,maxLength=256,pattern=^[A-Za-z0-9][A-Za-z0-9._+-]*$,description=Exact id from package_search."`
	Source    string `json:"source,omitempty" jsonschema:"enum=winget,enum=chocolatey,enum=scoop,default=winget"`
	Action    string `json:"action,omitempty" jsonschema:"enum=install,enum=upgrade,enum=uninstall,default=install"`
	Version   string `json:"version,omitempty" jsonschema:"maxLength=128"`
	Execute   bool   `json:"execute,omitempty"`
	tools.Identity
}

// Out is the result of package_install: the status, the plan fields (absent only when
// the input was refused before planning), the receipt when the installer was launched
// or refused at spawn, and whether the environment cache was invalidated.
type Out struct {
	tools.Status
	*Plan
	*plan.Receipt
	EnvironmentCacheInvalidated *bool `json:"environment_cache_invalidated,omitempty" jsonschema:"description=Present once execution got past the plan checks: true when the cache was invalidated (before the installer started)\\, false when invalidation failed and the installer was not started."`
	// ExecuteArguments is the plan's own arguments with execute:true and the reviewed
	// identity echoed, for a caller to pass back unchanged (docs/cli.md,
	// "execute_arguments"). Only on a plan whose package manager is installed.
	ExecuteArguments *In `json:"execute_arguments,omitempty" jsonschema:"description=On a plan whose package manager is installed: the exact arguments of the executing call (these arguments with execute:true and the reviewed identity echoed); pass them back unchanged to install what was reviewed."`
}

// Plan is the reviewed plan. An execute:true call must echo Executable,
// ExecutableIdentityKind and ExecutableIdentitySHA256 as the expected_* inputs; a plan
// with execute_arguments carries them there only, so each is said once (issue 24;
// docs/tools/package_install.md, "Output").
type Plan struct {
	PackageID                string   `json:"package_id"`
	Source                   string   `json:"source"`
	Action                   string   `json:"action"`
	Version                  string   `json:"version,omitempty" jsonschema:"description=The exact version asked for; absent when the manager chooses (the latest)."`
	SafetyClass              string   `json:"safety_class"`
	Executable               *string  `json:"executable,omitempty" jsonschema:"description=Absolute path of the package manager (in execute_arguments on a plan that has them)."`
	ExecutableIdentityKind   *string  `json:"executable_identity_kind,omitempty"`
	ExecutableIdentitySHA256 *string  `json:"executable_identity_sha256,omitempty"`
	Argv                     []string `json:"argv" jsonschema:"description=The exact argv; argv[0] is the resolved path (the bare name when not installed)."`
	// ExecutableResolved is present, false, only when the package manager is not
	// installed; a resolved one is said by the executable.
	ExecutableResolved *bool  `json:"executable_resolved,omitempty"`
	Verify             string `json:"verify" jsonschema:"description=What to check after the installer exits: its exit status is not proof that the package works."`
}

// Statuses are the words of a package_install result's status.
var Statuses = []string{tools.StatusPlanned, tools.StatusCompleted, tools.StatusFailed, tools.StatusUnavailable,
	tools.StatusStalePlan, tools.StatusCancelled}

// New returns the package_install tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "package_install",
		Order:       6,
		Title:       "Install package",
		Description: "Plan, then run, a package install, upgrade or uninstall (WinGet, Chocolatey, Scoop). To run it, pass the plan's execute_arguments back unchanged; then verify.",
		Annotations: tools.Annotations{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true},
		// Planning is read-only; execute exactly true is approval-required.
		Classes: tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
			{When: tools.WhenTrue("execute"), Class: tools.ApprovalRequired}}},
		Starts:   tools.WhenTrue("execute"),
		Statuses: Statuses,
		Handle: func(ctx context.Context, env *tools.Env, in In) (Out, error) {
			return d.handle(ctx, env, in), nil
		},
	})
}

func init() { tools.Register(New(DefaultDeps())) }
