package sandboxrun

import (
	"context"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/sandboxrun/internal/payload"
)

// In is the input of sandbox_run.
type In struct {
	Command              string   `json:"command" jsonschema:"required,minLength=1,description=sh -lc in WSL and Dev Container."`
	IsolationRequirement string   `json:"isolation_requirement" jsonschema:"required,enum=linux_compatibility,enum=project_reproducibility,enum=untrusted_windows"`
	Environment          string   `json:"environment,omitempty" jsonschema:"enum=auto,enum=wsl,enum=dev_container,enum=windows_sandbox,default=auto"`
	WorkspaceFolder      string   `json:"workspace_folder,omitempty"`
	PayloadPaths         []string `json:"payload_paths,omitempty" jsonschema:"description=Staged read-only into Windows Sandbox."`
	Execute              bool     `json:"execute,omitempty"`
	tools.Identity
}

// Out is the result of sandbox_run. Route refusals carry only status, error,
// environment (as requested) and isolation_requirement; a plan adds *Plan; an executed
// call adds the launch fields (Windows Sandbox) or the runner receipt (WSL, Dev
// Container).
type Out struct {
	tools.Status
	Environment          string `json:"environment,omitempty" jsonschema:"description=The backend (as requested when the route was refused)."`
	IsolationRequirement string `json:"isolation_requirement,omitempty"`
	*Plan
	PID              int    `json:"pid,omitempty" jsonschema:"description=Process id of the launched Windows Sandbox."`
	CleanupPath      string `json:"cleanup_path,omitempty" jsonschema:"description=The staged bundle; removed when the Sandbox process exits."`
	CleanupManaged   bool   `json:"cleanup_managed,omitempty" jsonschema:"description=true when the runtime removes the bundle after the Sandbox process exits."`
	CleanupPerformed bool   `json:"cleanup_performed,omitempty" jsonschema:"description=true when a failed launch already removed its bundle."`
	*plan.Receipt
	// ExecuteArguments is the plan's own arguments with execute:true and the reviewed
	// identity echoed, for a caller to pass back unchanged (docs/cli.md,
	// "execute_arguments"). Only on status planned.
	ExecuteArguments *In `json:"execute_arguments,omitempty" jsonschema:"description=On a plan only: the exact arguments of the executing call (these arguments with execute:true and the reviewed identity echoed); pass them back unchanged to run what was reviewed."`
}

// Plan is the reviewed plan, merged into execute results too. A plan with
// execute_arguments carries the executable and its identity there only, and argv is
// not rendered again as a command line, nor safety_class restated as a flag: each
// thing is said once (issue 24; docs/tools/sandbox_run.md, "Output").
type Plan struct {
	ProjectDir                  string   `json:"project_dir"`
	PayloadPaths                []string `json:"payload_paths"`
	SafetyClass                 string   `json:"safety_class"`
	Executable                  string   `json:"executable,omitempty"`
	ExecutableIdentityKind      string   `json:"executable_identity_kind,omitempty"`
	ExecutableIdentitySHA256    string   `json:"executable_identity_sha256,omitempty"`
	Argv                        []string `json:"argv"`
	LaunchKind                  string   `json:"launch_kind" jsonschema:"enum=captured,enum=interactive"`
	ConfigMaterializedOnExecute bool     `json:"config_materialized_on_execute"`
}

// Statuses are the words of a sandbox_run result's status.
var Statuses = []string{tools.StatusPlanned, tools.StatusCompleted, tools.StatusFailed, tools.StatusUnavailable,
	tools.StatusStalePlan, "launched", "unknown", tools.StatusCancelled}

// classes is sandbox_run's classification. Planning is read-only (hosts may still
// prompt: planning enumerates payload paths); executing is approval-required, and
// forbidden when the shell classifier forbids the command: WSL reaches the Windows
// drives under /mnt and starts Windows programs, and a Dev Container may mount them, so
// the command is classified as the shell commands the hosts run are
// (docs/tools/sandbox_run.md, "Safety").
var classes = tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
	{When: tools.WhenTrue("execute"), Class: tools.ApprovalRequired, Command: "command"}}}

// oracles answer classes' Command rule with the hooks' own shell classifier.
var oracles = tools.Oracles{Shell: classify.Shell}

// executionClass is the class executing command has: the plan shows it, and the
// handler refuses a forbidden one itself too (the pipeline has blocked it already).
func executionClass(command string) tools.Class {
	return classes.With(tools.Args{"execute": true, "command": command}, oracles)
}

// New returns the sandbox_run tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "sandbox_run",
		Order:       7,
		Title:       "Run isolated",
		Description: "Plan, then run, a command isolated in WSL, the project's Dev Container or Windows Sandbox. To run it, pass the plan's execute_arguments back unchanged.",
		Annotations: tools.Annotations{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true},
		ProjectArg:  "workspace_folder",
		Classes:     classes,
		Oracles:     oracles,
		Starts:      tools.WhenTrue("execute"),
		Statuses:    Statuses,
		Handle: func(ctx context.Context, env *tools.Env, in In) (Out, error) {
			return d.handle(ctx, env, in), nil
		},
	})
}

func init() { tools.Register(New(DefaultDeps())) }

// SweepStale removes Windows Sandbox bundles that a crashed server left in dataDir
// (older than a day, marked as ours, free of links). `wda mcp` calls it at start-up.
func SweepStale(dataDir string) error { return payload.SweepStale(dataDir) }
