// Package capabilityrun is the capability_run tool: plan (execute:false) or run a
// catalog capability, or a task the bound project declares (npm:dev, make:test,
// docs/project-tasks.md), through the capability engine (tools/internal/capability),
// bound to the executable identity, and for a project task the definition identity,
// the caller reviewed.
package capabilityrun

import (
	"context"
	"fmt"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/capability"
)

// In is the input of capability_run.
type In struct {
	Capability string   `json:"capability" jsonschema:"required,minLength=1,maxLength=256,description=Catalog id or project task <source>:<name>."`
	ExtraArgs  []string `json:"extra_args,omitempty" jsonschema:"maxItems=128"`
	Cwd        string   `json:"cwd,omitempty"`
	Execute    bool     `json:"execute,omitempty"`
	tools.Identity
	// ExpectedDefinitionSHA256 is a project task's definition identity echoed from the
	// plan (definition_sha256): an execution reads the task again and runs it only when
	// its definition is still the one reviewed.
	ExpectedDefinitionSHA256 string `json:"expected_definition_sha256,omitempty"`
	TimeoutSeconds           int    `json:"timeout_seconds,omitempty" jsonschema:"minimum=1,maximum=600,default=120"`
}

// Out is the result of capability_run: the engine's merged plan + receipt + status,
// and, on a plan that can be executed, the arguments of the executing call.
type Out struct {
	capability.Result
	// ExecuteArguments is this call's own arguments with execute:true and the reviewed
	// identity as the three expected_executable* fields (and a project task's
	// definition identity as expected_definition_sha256): a caller passes it back
	// unchanged to run exactly what it reviewed (docs/cli.md, "execute_arguments").
	// Present only on status planned, and never for a forbidden capability, whose
	// execution is blocked whatever it echoes.
	// Description is a project task's: the file that declares it and the file's own
	// words for it. A catalog capability's description is the catalog's, not repeated
	// here (capability.Result).
	Description      string `json:"description,omitempty"`
	ExecuteArguments *In    `json:"execute_arguments,omitempty" jsonschema:"description=On a plan only: the exact arguments of the executing call (these arguments with execute:true and the reviewed identity echoed); pass them back unchanged to run what was reviewed."`
}

// Deps are the authorities capability_run consults; tests pass fakes.
type Deps struct {
	// Catalog is the capability catalog in force: classification and the engine read
	// the same one.
	Catalog     func() (*catalog.Catalog, error)
	Resolver    func(getenv func(string) string) proc.Resolver
	Runner      proc.Runner
	Fingerprint func(path string) (proc.Identity, error)
	SamePath    func(a, b string) bool
	// Environ is the environment a project task's own variables are added to (nil:
	// os.Environ).
	Environ func() []string
}

// DefaultDeps are the shipped catalog and the real resolver, runner and fingerprints.
func DefaultDeps() Deps {
	return Deps{
		Catalog:     catalog.Shipped,
		Resolver:    func(getenv func(string) string) proc.Resolver { return proc.NewResolver(getenv) },
		Runner:      proc.Exec{},
		Fingerprint: proc.Fingerprint,
		SamePath:    proc.SamePath,
	}
}

// Statuses are the words of a capability_run result's status.
var Statuses = []string{tools.StatusPlanned, tools.StatusCompleted, tools.StatusFailed, tools.StatusUnavailable,
	tools.StatusStalePlan, "unknown_capability", tools.StatusConfigurationError, tools.StatusCancelled}

// New returns the capability_run tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "capability_run",
		Order:       3,
		Title:       "Run capability",
		Description: "Plan, then run, a catalog capability (test-go) or project task (npm:dev). To run it, pass the plan's execute_arguments back unchanged.",
		Annotations: tools.Annotations{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true},
		ProjectArg:  "cwd",
		// A plan is read-only; an execution takes the effective class of the named
		// capability in the catalog in force, raised by extra arguments: to
		// approval-required, or to forbidden when the shell classifier forbids the
		// argv they make (docs/safety.md). A project task's id is approval-required
		// here (tools.IsProjectTaskID); the engine classifies its definition and
		// blocks a forbidden one itself.
		Classes: tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
			{When: tools.WhenTrue("execute"), Catalog: &tools.CatalogRef{ID: "capability", Extra: "extra_args"}},
		}},
		Oracles:  tools.Oracles{Catalog: d.catalogClass, CatalogArgv: d.catalogArgv, Shell: classify.Shell},
		Starts:   tools.WhenTrue("execute"),
		Statuses: Statuses,
		Handle:   d.handle,
	})
}

func init() { tools.Register(New(DefaultDeps())) }

// catalogClass is a capability's base class in the catalog in force.
func (d Deps) catalogClass(id string) (tools.Class, bool) {
	cat, err := d.Catalog()
	if err != nil {
		return "", false
	}
	cp, ok := cat.Get(id)
	if !ok {
		return "", false
	}
	return cp.Safety, true
}

// catalogArgv is the argv of each tool of a capability in the catalog in force.
func (d Deps) catalogArgv(id string) ([][]string, bool) {
	cat, err := d.Catalog()
	if err != nil {
		return nil, false
	}
	cp, ok := cat.Get(id)
	if !ok {
		return nil, false
	}
	argvs := make([][]string, len(cp.Tools))
	for i, t := range cp.Tools {
		argvs[i] = t.Argv
	}
	return argvs, true
}

func (d Deps) handle(ctx context.Context, env *tools.Env, in In) (Out, error) {
	cat, err := d.Catalog()
	if err != nil {
		return Out{Result: capability.Result{Status: tools.Refusal(tools.StatusConfigurationError, fmt.Sprintf("capability catalog could not be loaded: %v", err)),
			Capability: in.Capability}}, nil
	}
	dir := env.ProjectDir
	if env.Project != nil {
		dir = env.Project.Path
	}
	e := &capability.Engine{Catalog: cat, Resolver: d.Resolver(env.Lookup), Runner: d.Runner,
		Fingerprint: d.Fingerprint, SamePath: d.SamePath, Environ: d.Environ}
	req := capability.Request{Capability: in.Capability, ExtraArgs: in.ExtraArgs, Dir: dir,
		Execute: in.Execute, Expected: in.Identity, TimeoutSeconds: in.TimeoutSeconds, Progress: env.Progress,
		Project: env.Project, ExpectedDefinitionSHA256: in.ExpectedDefinitionSHA256}
	// A project task opens its own working directory from the held root (its cwd may
	// be a directory below the bound one); a catalog capability runs in the bound one.
	if in.Execute && env.Project != nil && !tools.IsProjectTaskID(in.Capability) {
		// The run gets the bound project by handle: whatever happens to its name after
		// the binding, the child starts in the directory that was checked.
		h, err := env.Project.Dir()
		if err != nil {
			return Out{Result: capability.Result{Status: tools.Refusal(tools.StatusInvalidInput, "the project directory could not be opened: "+err.Error()),
				Capability: in.Capability}}, nil
		}
		defer h.Close()
		req.DirHandle = h
	}
	return withExecuteArguments(e.Run(ctx, req), in), nil
}

// withExecuteArguments adds the executing call's arguments to a plan that can run,
// and says each thing of the result once (issue 24, "A plan carries exactly what
// execution needs"): the identities of a plan with execute_arguments (the executable's
// and a project task's definition_sha256) are there only, and base_safety_class only
// when it differs from safety_class.
func withExecuteArguments(res capability.Result, in In) Out {
	if res.BaseSafetyClass == res.SafetyClass {
		res.BaseSafetyClass = ""
	}
	out := Out{Result: res}
	if res.TaskPlan != nil {
		out.Description = res.Description
	}
	if res.Status.Status != tools.StatusPlanned || res.Plan == nil || res.SafetyClass == tools.Forbidden {
		return out
	}
	exec := in
	exec.Execute = true
	if exec.TimeoutSeconds == capability.DefaultTimeoutSeconds {
		exec.TimeoutSeconds = 0 // the default again when passed back
	}
	exec.Identity = tools.Identity{ExpectedExecutable: res.Executable,
		ExpectedExecutableIdentityKind: string(res.ExecutableIdentityKind),
		ExpectedExecutableIdentitySHA:  res.ExecutableIdentitySHA256}
	exec.ExpectedDefinitionSHA256 = ""
	if res.TaskPlan != nil {
		exec.ExpectedDefinitionSHA256 = res.DefinitionSHA256
	}
	out.ExecuteArguments = &exec
	p := *res.Plan
	p.Executable, p.ExecutableIdentityKind, p.ExecutableIdentitySHA256 = "", "", ""
	out.Plan = &p
	if res.TaskPlan != nil {
		tp := *res.TaskPlan
		tp.DefinitionSHA256 = ""
		out.TaskPlan = &tp
	}
	return out
}
