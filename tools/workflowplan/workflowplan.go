// Package workflowplan is the workflow_plan tool: it routes a development task to the
// capability catalog (tools/workflowplan/internal/routing) and returns every candidate with its evidence
// and a four-phase plan. It only resolves tool names to label availability; it never
// starts a process.
package workflowplan

import (
	"context"
	"strings"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/capability"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

// In is the input of workflow_plan.
type In struct {
	Task    string `json:"task" jsonschema:"required,minLength=1,pattern=\\S,description=What the user wants done."`
	Context string `json:"context,omitempty" jsonschema:"default=,description=Extra context that may carry route-changing words."`
	Cwd     string `json:"cwd,omitempty" jsonschema:"description=Project directory (default: the active project)."`
}

// Out is the result of workflow_plan. Planned is present only with status planned;
// invalid_input and configuration_error carry just the status and error.
type Out struct {
	tools.Status
	*Planned
}

// Planned is the routing outcome of a planned call.
type Planned struct {
	Task       string `json:"task" jsonschema:"description=The task without surrounding whitespace."`
	ProjectDir string `json:"project_dir" jsonschema:"description=The resolved project directory the plan is bound to."`
	routing.Route
}

// Deps are the authorities workflow_plan consults; tests pass fakes.
type Deps struct {
	// Catalog is the capability catalog in force.
	Catalog func() (*catalog.Catalog, error)
	// Resolver finds executables on the call's PATH (to label availability).
	Resolver func(getenv func(string) string) proc.Resolver
}

// DefaultDeps are the shipped catalog and the real resolver.
func DefaultDeps() Deps {
	return Deps{Catalog: catalog.Shipped,
		Resolver: func(getenv func(string) string) proc.Resolver { return proc.NewResolver(getenv) }}
}

// New returns the workflow_plan tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "workflow_plan",
		Order:       4,
		Title:       "Plan workflow",
		Description: "Route a development task to catalog capabilities with deterministic evidence (id and tag overlap), report every candidate and a four-phase plan (inspect, route, execute, verify). Never executes anything.",
		Annotations: tools.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
		ProjectArg:  "cwd",
		Classes:     tools.Classification{Base: tools.ReadOnly},
		Starts:      tools.NeverCond,
		Statuses:    []string{tools.StatusPlanned, tools.StatusConfigurationError},
		Handle: func(ctx context.Context, env *tools.Env, in In) (Out, error) {
			return d.handle(ctx, env, in)
		},
	})
}

func init() { tools.Register(New(DefaultDeps())) }

func (d Deps) handle(_ context.Context, env *tools.Env, in In) (Out, error) {
	task := strings.TrimSpace(in.Task)
	cat, err := d.Catalog()
	if err != nil {
		return refuse(tools.StatusConfigurationError, err.Error()), nil
	}
	dir := env.ProjectDir
	if env.Project != nil {
		dir = env.Project.Path
	}
	route := routing.Plan(cat, task, in.Context, Availability(cat, d.Resolver(env.Lookup)))
	return Out{Status: tools.Status{Status: tools.StatusPlanned}, Planned: &Planned{Task: task, ProjectDir: dir, Route: route}}, nil
}

// Availability labels each capability with the tool capability_run would select.
func Availability(cat *catalog.Catalog, r proc.Resolver) routing.Availability {
	return func(id string) (string, bool) {
		cp, ok := cat.Get(id)
		if !ok {
			return "", false
		}
		t, _, ok := capability.SelectTool(cp, r)
		return t.Name, ok
	}
}

func refuse(status, msg string) Out {
	return Out{Status: tools.Status{Status: status, Error: msg}}
}
