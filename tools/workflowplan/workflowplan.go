// Package workflowplan is the workflow_plan tool (docs/tools/workflow_plan.md): it routes
// a development task to the capability catalog or to one of the tasks the project
// declares for itself (internal/routing), with the task's words, the project's own files
// (internal/projectscan) and its tasks (internal/projecttasks) as evidence, read through
// the bound project handle only, or to the other tool of this server that answers it;
// it returns the candidates with evidence, the next call and a four-phase plan,
// compact unless detail "full" is asked for. It only resolves tool names to label
// availability and reads a few small files of the project's root; it never writes
// and never starts a process.
package workflowplan

import (
	"context"
	"os"
	"strconv"
	"strings"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/projecttasks"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/capability"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/projectscan"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

// In is the input of workflow_plan.
type In struct {
	Task    string `json:"task" jsonschema:"required,pattern=\\S"`
	Context string `json:"context,omitempty" jsonschema:"description=More words that may change the route."`
	Cwd     string `json:"cwd,omitempty"`
	Detail  string `json:"detail,omitempty" jsonschema:"enum=compact,enum=full,description=full: every candidate and score."`
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
	// Scan reports which of the wanted project_files entries the bound project's root
	// holds; it reads only through root.
	Scan func(root *os.Root, wanted []string) projectscan.Result
	// Tasks reads the tasks the bound project declares for itself (package.json
	// scripts, Makefile targets …); it reads only through the project's root.
	Tasks func(p *tools.Project) (projecttasks.Set, []projecttasks.Warning)
}

// DefaultDeps are the shipped catalog, the real resolver and the project scanner.
func DefaultDeps() Deps {
	return Deps{Catalog: catalog.Shipped,
		Resolver: func(getenv func(string) string) proc.Resolver { return proc.NewResolver(getenv) },
		Scan:     projectscan.Scan,
		Tasks: func(p *tools.Project) (projecttasks.Set, []projecttasks.Warning) {
			return projecttasks.Read(p, projecttasks.Options{})
		}}
}

// New returns the workflow_plan tool running with d.
func New(d Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "workflow_plan",
		Order:       4,
		Title:       "Plan workflow",
		Description: "Route a development task to the call that does it (next_tool): a project task (npm script, make, just, VS Code task), catalog capability, package setup or other tool. Runs nothing.",
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
	resolver := d.Resolver(env.Lookup)
	req := routing.Request{Task: task, Context: in.Context, Available: Availability(cat, resolver)}
	if env.Project != nil && env.Project.Root != nil {
		req.Project = d.evidence(env.Project.Root, cat)
		if d.Tasks != nil {
			req.Tasks, req.Project.TaskWarnings = d.tasks(env.Project, resolver)
		}
	}
	route := routing.Plan(cat, req)
	if in.Detail != "full" {
		route.SetCompact()
	}
	// A project-scoped next tool gets the directory this plan is bound to, so the call
	// works where the host requires an absolute project argument (Codex).
	if nt := route.NextTool; nt != nil && dir != "" {
		if arg := routing.ProjectArgs[nt.Name]; arg != "" {
			nt.Arguments[arg] = dir
		}
	}
	return Out{Status: tools.Status{Status: tools.StatusPlanned}, Planned: &Planned{Task: task, ProjectDir: dir, Route: route}}, nil
}

// evidence scans the project's root for every project_files entry of the catalog.
func (d Deps) evidence(root *os.Root, cat *catalog.Catalog) *routing.ProjectEvidence {
	var wanted []string
	for _, id := range cat.IDs() {
		cp, _ := cat.Get(id)
		wanted = append(wanted, cp.ProjectFiles...)
	}
	res := d.Scan(root, wanted)
	ev := &routing.ProjectEvidence{Inspected: true, Found: res.Found, Files: res.Files, Read: res.Read,
		Skipped: make([]routing.SkippedFile, 0, len(res.Skipped))}
	for _, s := range res.Skipped {
		ev.Skipped = append(ev.Skipped, routing.SkippedFile{File: s.File, Reason: s.Reason})
	}
	return ev
}

// maxTaskWarnings is how many of the task reader's warnings a result quotes.
const maxTaskWarnings = 3

// tasks reads the project's own tasks as routing candidates (issue 23 §1), each
// labelled with whether its runner resolves, and a brief of the reader's warnings.
// Helpers are never offered.
func (d Deps) tasks(p *tools.Project, r proc.Resolver) ([]routing.ProjectTask, *routing.TaskWarnings) {
	set, warns := d.Tasks(p)
	out := make([]routing.ProjectTask, 0, len(set.Tasks))
	for _, t := range set.Tasks {
		pt := routing.ProjectTask{ID: t.ID, Source: string(t.Source), Name: t.Name, Aliases: t.Aliases, Argv: t.Argv,
			Env: len(t.Env) > 0, Definition: t.Definition, Description: t.Description, File: t.File, Line: t.Line}
		if t.Group != "" && t.Source == projecttasks.SourceVSCode {
			// A VS Code task's group (build, test) is what the task is for.
			pt.Aliases = append(append([]string{}, t.Aliases...), t.Group)
		}
		if len(t.Argv) > 0 {
			_, pt.Available = r.Resolve(t.Argv[0])
		}
		out = append(out, pt)
	}
	if len(warns) == 0 {
		return out, nil
	}
	w := &routing.TaskWarnings{Count: len(warns)}
	for _, x := range warns[:min(len(warns), maxTaskWarnings)] {
		at := x.File
		if x.Line > 0 {
			at += ":" + strconv.Itoa(x.Line)
		}
		w.First = append(w.First, at+" "+string(x.Rule))
	}
	return out, w
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
