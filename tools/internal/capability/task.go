package capability

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/projecttasks"
	"github.com/windows-dev-agent/wda/tools"
)

// Error texts of project tasks that are part of the contract
// (docs/tools/capability_run.md, "Project tasks").
const (
	ErrDefinitionMissing   = "expected_definition_sha256 is required when execute is true for a project task: pass the reviewed plan's execute_arguments"
	ErrDefinitionMalformed = "expected_definition_sha256 must be 64 hexadecimal characters: pass the reviewed plan's execute_arguments"
	ErrStaleDefinition     = "The project task's definition changed since the plan; plan again and review the new definition"
	ErrDefinitionNotTask   = "expected_definition_sha256 applies only to a project task (<source>:<name>, such as npm:dev)"
	ErrNoProject           = "project tasks are read from the bound project directory, and none is bound"
	ErrShellTaskExtraArgs  = "extra_args cannot be given to a VS Code shell task: its shell would read them as part of its command line"
)

// MaxWarnings is the most reader warnings a result lists; the rest are counted.
const MaxWarnings = 20

// TaskPlan is what a plan of a project task shows besides Plan: where the task is
// defined, what it runs, and the identity of that definition.
type TaskPlan struct {
	DefinitionSHA256 string            `json:"definition_sha256,omitempty" jsonschema:"description=SHA-256 of the task's definition; echo it as expected_definition_sha256."`
	TaskFile         string            `json:"task_file" jsonschema:"description=File defining the task (relative to the project directory)."`
	TaskLine         int               `json:"task_line" jsonschema:"description=Line of the task's name in task_file."`
	TaskCwd          string            `json:"task_cwd" jsonschema:"description=Working directory of the run (relative to the project directory)."`
	TaskEnv          map[string]string `json:"task_env,omitempty" jsonschema:"description=Variables the task adds to the environment (VS Code options.env)."`
	TaskBackground   bool              `json:"task_background,omitempty" jsonschema:"description=The file marks the task as long-running (VS Code isBackground): it runs until the timeout stops it."`
	// Runs is every text running the task runs that the project's files declare, in
	// order; the class is at least that of each (docs/project-tasks.md, "What runs").
	Runs         []projecttasks.Text `json:"runs" jsonschema:"description=Every text the task runs that the project's files declare (its needs\\, implicit texts and definition)."`
	RunsComplete bool                `json:"runs_complete" jsonschema:"description=False when the task runs something the reader could not see (a task of an included file): then the class is approval-required at least."`
	// MatchesCapability is the catalog capability whose argv is exactly the task's,
	// whose class is then the task's base class.
	MatchesCapability string `json:"matches_capability,omitempty" jsonschema:"description=Catalog capability whose argv is exactly this task's argv; its class is the base class."`
}

// TaskSafety is the class of running a project task, and why.
type TaskSafety struct {
	// Base is approval-required, or the class of the catalog capability whose argv is
	// exactly the task's (Matches) when the task adds no environment.
	Base    tools.Class
	Matches string
	// Class is Base raised by the shell classifier's class of every text the task runs,
	// to approval-required when those texts are incomplete or extra arguments are
	// given, and to forbidden when the task's argv with the extra arguments, or the
	// extra arguments alone, are forbidden.
	Class tools.Class
	// Reason says what decided Class.
	Reason string
}

// ClassifyTask is the class of running task t of set s with extraArgs, cat being the
// catalog in force (docs/project-tasks.md, "How they run"). A project's definitions
// are untrusted, so a task is approval-required at least, unless its argv is exactly
// the argv of a catalog capability and it sets no environment variable: then it runs
// exactly what that capability runs, and that capability's class is its base. Every
// text it runs goes through the shell classifier and can only raise the class; a
// forbidden one makes the task forbidden.
func ClassifyTask(cat *catalog.Catalog, s *projecttasks.Set, t projecttasks.Task, extraArgs []string) TaskSafety {
	ts := TaskSafety{Base: tools.ApprovalRequired,
		Reason: fmt.Sprintf("%s is the project's own definition, not reviewed catalog data: approval-required at least", t.ID)}
	if len(t.Env) == 0 && cat != nil {
		for _, id := range cat.IDs() {
			cp, _ := cat.Get(id)
			for _, tool := range cp.Tools {
				if slices.Equal(tool.Argv, t.Argv) && (ts.Matches == "" || cp.Safety.Rank() > ts.Base.Rank()) {
					ts.Base, ts.Matches = cp.Safety, cp.ID
					ts.Reason = fmt.Sprintf("the argv of %s is exactly that of the catalog capability %s, whose class is %s", t.ID, cp.ID, cp.Safety)
				}
			}
		}
	}
	ts.Class = ts.Base
	raise := func(c tools.Class, why string) {
		if c.Rank() > ts.Class.Rank() {
			ts.Class, ts.Reason = c, why
		}
	}
	texts, complete := s.RunTexts(t.ID)
	for _, x := range texts {
		c, why := classify.Explain(x.Text)
		if c == tools.Forbidden {
			raise(c, fmt.Sprintf("%s runs a command the shell classifier forbids: %s", x.Task, why))
			continue
		}
		if x.Lang == projecttasks.LangScript {
			// A script for another interpreter: the shell classifier cannot read it.
			c, why = tools.MaxClass(c, tools.ApprovalRequired), "it is a script for an interpreter the shell classifier does not read"
		}
		raise(c, fmt.Sprintf("%s runs a text the shell classifier calls %s: %s", x.Task, c, why))
	}
	if !complete {
		raise(tools.ApprovalRequired, fmt.Sprintf("%s needs a task the reader could not see (one of an included file), so something runs that was not classified", t.ID))
	}
	if len(extraArgs) > 0 {
		raise(tools.ApprovalRequired, "extra_args are not reviewed data")
		if c, why := classify.Argv(extraArgs); c == tools.Forbidden {
			raise(c, "extra_args carry a command the shell classifier forbids: "+why)
		}
	}
	if c, why := classify.Argv(append(slices.Clip(t.Argv), extraArgs...)); c == tools.Forbidden {
		raise(c, fmt.Sprintf("the argv of %s is a command the shell classifier forbids: %s", t.ID, why))
	}
	return ts
}

// ProgramRel is where a task's argv[0] that is a path (not a bare name) lies inside the
// project whose absolute path is project: relative to the task's working directory cwd
// (a slash path relative to the project), as VS Code resolves a process's command, or
// an absolute path inside the project. It returns the slash path relative to the
// project, or the reason the path is refused: it leaves the project, is absolute
// elsewhere, or is relative to a drive or a drive's root (Windows' C:x and \x).
// A bare name (isPath false) is for the PATH resolver.
func ProgramRel(project, cwd, name string) (rel string, isPath bool, refusal string) {
	if name != "." && name != ".." && !strings.ContainsRune(name, '/') && !strings.ContainsRune(name, filepath.Separator) &&
		filepath.VolumeName(name) == "" {
		return "", false, ""
	}
	slash := filepath.ToSlash(name)
	switch {
	case filepath.IsAbs(name):
		r, ok := contain.Rel(project, name)
		if !ok {
			return "", true, "it is an absolute path outside the project; a task's program is a bare name found on PATH or a file inside the project"
		}
		rel = filepath.ToSlash(r)
	case filepath.VolumeName(name) != "" || strings.HasPrefix(slash, "/"):
		return "", true, "it is a path relative to a drive or to the root of the current drive"
	default:
		rel = path.Join(filepath.ToSlash(cwd), slash)
	}
	if rel == "." || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", true, "it leaves the project"
	}
	return rel, true, ""
}

// taskProgram resolves the program of t: a bare name with the resolver (PATH, never the
// working directory), or a regular file inside the project reached without a link
// (guard.Check) and then resolved as an absolute path (so the platform's rules for an
// executable file apply; on Windows no extension is guessed). It returns the absolute
// executable or the refusal.
func (e *Engine) taskProgram(p *tools.Project, t projecttasks.Task) (string, string) {
	name := t.Argv[0]
	rel, isPath, refusal := ProgramRel(p.Path, t.Cwd, name)
	if refusal != "" {
		return "", fmt.Sprintf("The program of %s is refused: %s: %s", t.ID, refusal, name)
	}
	if !isPath {
		if exe, ok := e.Resolver.Resolve(name); ok {
			return exe, ""
		}
		return "", fmt.Sprintf("The program of %s is not installed: %s", t.ID, name)
	}
	entry, err := guard.Check(p, rel)
	var le *guard.LinkError
	switch {
	case errors.As(err, &le):
		return "", fmt.Sprintf("The program of %s is refused: a link is on its path inside the project: %s", t.ID, name)
	case err != nil || !entry.Exists || entry.Kind != guard.KindFile:
		return "", fmt.Sprintf("The program of %s is not a file in the project: %s", t.ID, name)
	}
	if exe, ok := e.Resolver.Resolve(filepath.Join(p.Path, filepath.FromSlash(rel))); ok {
		return exe, ""
	}
	return "", fmt.Sprintf("The program of %s is not an executable file: %s", t.ID, name)
}

// warningsFor splits the reader's warnings: those about file (or, when file is "",
// about a file of source) are listed, at most MaxWarnings; the rest are counted.
func warningsFor(ws []projecttasks.Warning, file string, source projecttasks.Source) ([]projecttasks.Warning, int) {
	var listed []projecttasks.Warning
	for _, w := range ws {
		relevant := w.File == file
		if file == "" {
			relevant = sourceOfFile(w.File) == source
		}
		if relevant && len(listed) < MaxWarnings {
			listed = append(listed, w)
		}
	}
	return listed, len(ws) - len(listed)
}

// sourceOfFile is the task source whose file name is the base of f
// (docs/project-tasks.md, "Where tasks are read"), "" for any other.
func sourceOfFile(f string) projecttasks.Source {
	base := strings.ToLower(path.Base(f))
	switch {
	case base == "package.json":
		return projecttasks.SourceNPM
	case base == "tasks.json":
		return projecttasks.SourceVSCode
	case base == "makefile" || base == "gnumakefile":
		return projecttasks.SourceMake
	case base == "justfile" || base == ".justfile":
		return projecttasks.SourceJust
	case strings.HasPrefix(base, "taskfile."):
		return projecttasks.SourceTask
	}
	return ""
}

// taskDescription describes t for the result.
func taskDescription(t projecttasks.Task) string {
	d := fmt.Sprintf("The project's %s task %q (%s line %d)", t.Source, t.Name, t.File, t.Line)
	if t.Description != "" {
		d += ": " + t.Description
	}
	return d
}

// requiredArgs is how many arguments just needs after a recipe's name: one per
// required parameter (a + parameter needs one at least).
func requiredArgs(t projecttasks.Task) (int, []string) {
	n, names := 0, []string(nil)
	for _, p := range t.Params {
		if p.Required {
			n++
			names = append(names, p.Name)
		}
	}
	return n, names
}

// taskEnviron is base with add set, each key replacing the variable of the same name
// (case-insensitively on Windows, where names are), in sorted order after base.
func taskEnviron(base []string, add map[string]string, windows bool) []string {
	same := func(a, b string) bool {
		if windows {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	out := make([]string, 0, len(base)+len(add))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		replaced := false
		for a := range add {
			if same(k, a) {
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(add))
	for k := range add {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+add[k])
	}
	return out
}

// openTaskDir opens the task's working directory from the project's held root: a
// component that is a link is refused (guard.Check), and the open itself is through
// the root, which cannot leave the project whatever changes after the check.
func openTaskDir(p *tools.Project, cwd string) (*os.File, string, error) {
	abs := filepath.Join(p.Path, filepath.FromSlash(cwd))
	if cwd == "." || cwd == "" {
		f, err := p.Dir()
		return f, abs, err
	}
	entry, err := guard.Check(p, cwd)
	if err != nil {
		return nil, abs, err
	}
	if !entry.Exists || entry.Kind != guard.KindDir {
		return nil, abs, errors.New("not a directory")
	}
	f, err := p.Root.Open(filepath.FromSlash(cwd))
	if err != nil {
		return nil, abs, err
	}
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		f.Close()
		return nil, abs, errors.New("not a directory")
	}
	return f, abs, nil
}

// runTask plans or runs the project task req.Capability (docs/tools/capability_run.md,
// "Project tasks", for the decision order).
func (e *Engine) runTask(ctx context.Context, req Request) Result {
	p := req.Project
	if p == nil {
		return Result{Status: tools.Status{Status: tools.StatusInvalidInput, Error: ErrNoProject}, Capability: req.Capability}
	}
	// T1. A fresh read of the project's tasks: a plan and its execution each read them.
	set, warnings := projecttasks.Read(p, projecttasks.Options{GOOS: e.GOOS})
	t, ok := set.Lookup(req.Capability)
	if !ok {
		res := Result{Status: tools.Status{Status: "unknown_capability",
			Error: fmt.Sprintf("Unknown capability: %s", req.Capability)}, Capability: req.Capability}
		res.Available = e.Catalog.IDs()
		slices.Sort(res.Available)
		for _, o := range set.Tasks {
			res.ProjectTasks = append(res.ProjectTasks, o.ID)
		}
		source, _, _ := strings.Cut(req.Capability, ":")
		res.Warnings, res.MoreWarnings = warningsFor(warnings, "", projecttasks.Source(source))
		return res
	}
	texts, complete := set.RunTexts(t.ID)
	res := Result{Capability: t.ID, Description: taskDescription(t),
		TaskPlan: &TaskPlan{DefinitionSHA256: t.DefinitionSHA256, TaskFile: t.File, TaskLine: t.Line, TaskCwd: t.Cwd,
			TaskEnv: t.Env, TaskBackground: t.Background, Runs: texts, RunsComplete: complete}}
	res.Warnings, res.MoreWarnings = warningsFor(warnings, t.File, t.Source)

	// T2. extra_args, as for a catalog capability, and what the task's runner needs.
	if msg := checkExtraArgs(req.ExtraArgs); msg != "" {
		return invalid(res, msg)
	}
	if len(req.ExtraArgs) > 0 && t.Source == projecttasks.SourceVSCode && t.Lang == projecttasks.LangShell {
		return invalid(res, ErrShellTaskExtraArgs)
	}
	if n, names := requiredArgs(t); len(req.ExtraArgs) < n {
		return invalid(res, fmt.Sprintf("extra_args: %s needs %d argument(s) for its required parameters %s", t.ID, n, strings.Join(names, ", ")))
	}

	// T3. The class, before the program: an unavailable task still says it.
	safety := ClassifyTask(e.Catalog, &set, t, req.ExtraArgs)
	res.BaseSafetyClass, res.SafetyClass, res.SafetyReason = safety.Base, safety.Class, safety.Reason
	res.MatchesCapability = safety.Matches

	// T4. The program.
	exe, refusal := e.taskProgram(p, t)
	if refusal != "" {
		res.Status = tools.Status{Status: tools.StatusUnavailable, Error: refusal}
		res.CheckedTools = []string{t.Argv[0]}
		return res
	}

	// T5. argv, plan, identity.
	argv := append(append([]string{exe}, t.Argv[1:]...), req.ExtraArgs...)
	res.Plan = &Plan{Tool: t.Argv[0], Executable: exe, Argv: argv, Command: plan.Command(argv),
		RequiresHostApproval: RequiresHostApproval(safety.Class)}
	id, err := e.Fingerprint(exe)
	if err != nil || !id.Valid() {
		res.Status = tools.Status{Status: tools.StatusUnavailable, Error: ErrIdentityUnknown}
		return res
	}
	res.ExecutableIdentityKind = id.Kind
	res.ExecutableIdentitySHA256 = strings.ToLower(id.SHA256)
	if !req.Execute {
		res.Status = tools.Status{Status: tools.StatusPlanned}
		return res
	}
	// T6. Forbidden, before any echo.
	if safety.Class == tools.Forbidden {
		res.Status = tools.Status{Status: tools.StatusBlocked, Error: ErrForbidden}
		return res
	}
	// T7. The definition echo: the fresh read must give the reviewed identity.
	switch echoed := strings.TrimSpace(req.ExpectedDefinitionSHA256); {
	case echoed == "":
		return invalid(res, ErrDefinitionMissing)
	case !isSHA256(echoed):
		return invalid(res, ErrDefinitionMalformed)
	case !strings.EqualFold(echoed, t.DefinitionSHA256):
		res.Status = tools.Status{Status: tools.StatusStalePlan, Error: ErrStaleDefinition}
		return res
	}
	// T8. The executable echo.
	seal, r := plan.CheckEchoWith(e.SamePath, req.Expected, exe, id)
	if r != nil {
		res.Status = tools.Status{Status: r.Status, Error: echoError(r)}
		return res
	}
	// T9. The working directory, opened from the held root.
	dir, abs, err := openTaskDir(p, t.Cwd)
	if err != nil {
		return invalid(res, "Not a directory: "+abs)
	}
	defer dir.Close()
	var env []string
	if len(t.Env) > 0 {
		environ := e.Environ
		if environ == nil {
			environ = os.Environ
		}
		env = taskEnviron(environ(), t.Env, runtime.GOOS == "windows")
	}
	// T10. Run, sealed to the reviewed identity.
	rc := e.Runner.Run(ctx, proc.Request{Argv: slices.Clone(argv), Dir: abs, DirHandle: dir, Env: env,
		Timeout: ClampTimeout(req.TimeoutSeconds), Expected: seal, OnProgress: plan.Progress(req.Progress)})
	return merge(res, rc)
}

// isSHA256 reports whether s is 64 hexadecimal characters (either case).
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// scriptForbidden classifies what a catalog capability's Node script runs in the bound
// project (docs/project-tasks.md, "Catalog capabilities that run a script"): a catalog
// class is reviewed for the command, not for a repository's script behind it, so a
// script (or its pre/post script) the shell classifier forbids makes the run forbidden.
// Only forbidden raises the class: the shipped classes of test-npm and its kin already
// say what running the project's own script means.
func scriptForbidden(p *tools.Project, goos string, argv []string) (string, bool) {
	name := projecttasks.ScriptRun(argv)
	if p == nil || p.Root == nil || name == "" {
		return "", false
	}
	set, _ := projecttasks.Read(p, projecttasks.Options{GOOS: goos})
	texts, _ := set.RunTexts(string(projecttasks.SourceNPM) + ":" + name)
	for _, x := range texts {
		if c, why := classify.Explain(x.Text); c == tools.Forbidden {
			return fmt.Sprintf("the project's script %s runs a command the shell classifier forbids: %s", x.Task, why), true
		}
	}
	return "", false
}
