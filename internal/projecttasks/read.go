package projecttasks

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/tools"
)

// Options are what Read cannot know from the files.
type Options struct {
	// Dir is the directory to read, relative to the project root, slash- or
	// OS-separated ("" or "." for the root): a package of a monorepo is read as its own
	// root. It must stay inside the project and is walked without following links.
	Dir string
	// GOOS is the operating system the tasks will run on ("windows", "linux",
	// "darwin"; "" means runtime.GOOS). It picks VS Code's windows/linux/osx overrides,
	// the default shell of VS Code shell tasks, just's [windows]/[unix] recipes and
	// Taskfile platforms.
	GOOS string
	// Shell is the shell and its arguments that run a VS Code shell task's command line
	// when the task names no shell of its own; the command line is appended as the last
	// argument. nil (or an empty executable) means the documented default:
	// ["powershell", "-NoProfile", "-Command"] on Windows, ["sh", "-c"] elsewhere
	// (docs/project-tasks.md, "Shell tasks").
	Shell []string
}

// The files each source reads, in the order its own tool looks for them; the first
// one present is read.
var (
	makefileNames = []string{"GNUmakefile", "makefile", "Makefile"}
	taskfileNames = []string{
		"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
		"Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml",
	}
	lockfiles = []struct{ name, runner string }{
		{"pnpm-lock.yaml", "pnpm"}, {"yarn.lock", "yarn"}, {"bun.lockb", "bun"}, {"bun.lock", "bun"},
		{"package-lock.json", "npm"}, {"npm-shrinkwrap.json", "npm"},
	}
)

// input is one file handed to a parser, with what the parser may need to know about
// where it is.
type input struct {
	file      string // slash path relative to the project root
	dir       string // slash path of the directory read ("." for the root)
	data      []byte
	goos      string
	workspace string // the directory read as an absolute path in the target's syntax
	shell     []string
	runner    string // package.json only
}

// output is what a parser returns.
type output struct {
	tasks   []Task
	helpers []Task
	warns   []Warning
}

func (o *output) warn(file string, line int, rule Rule, format string, args ...any) {
	o.warns = append(o.warns, Warning{File: file, Line: line, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// count is the number of tasks found so far.
func (o *output) count() int { return len(o.tasks) + len(o.helpers) }

// Read reads the tasks the directory opts.Dir of the bound project declares
// (docs/project-tasks.md). It reads only that directory's own files, through the
// project's held root, never following a link. Whatever it cannot read or understand
// is a Warning; Read itself never fails.
func Read(p *tools.Project, opts Options) (Set, []Warning) {
	goos := opts.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	dir, err := cleanDir(opts.Dir)
	set := Set{Dir: dir, Tasks: []Task{}}
	if err != nil {
		return set, []Warning{{File: filepath.ToSlash(opts.Dir), Rule: RuleDir, Message: err.Error()}}
	}
	names, err := listDir(p, dir)
	if err != nil {
		return set, []Warning{{File: dir, Rule: RuleDir, Message: err.Error()}}
	}
	present := map[string]bool{}
	for _, n := range names {
		present[n] = true
	}
	base := &input{dir: dir, goos: goos, shell: opts.Shell}
	if p != nil {
		base.workspace = joinTarget(goos, p.Path, dir)
	}
	var all output
	add := func(o output) {
		slices.SortStableFunc(o.warns, func(a, b Warning) int { return a.Line - b.Line })
		all.warns = append(all.warns, o.warns...)
		for _, group := range []struct {
			from []Task
			to   *[]Task
		}{{o.tasks, &all.tasks}, {o.helpers, &all.helpers}} {
			for _, t := range group.from {
				if all.count() >= MaxTasks {
					all.warn(t.File, t.Line, RuleTooMany, "more than %d tasks: this one and the rest of the file are skipped", MaxTasks)
					return
				}
				*group.to = append(*group.to, t)
			}
		}
	}
	read := func(name string) ([]byte, string, bool) {
		rel := path.Join(dir, name)
		b, err := guard.ReadProject(p, rel)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, rel, false
		case errors.Is(err, guard.ErrTooLarge):
			all.warn(rel, 0, RuleTooLarge, "the file is larger than %d bytes and is not read", MaxFileBytes)
			return nil, rel, false
		case err != nil:
			all.warn(rel, 0, RuleUnreadable, "the file could not be read: %v", err)
			return nil, rel, false
		case len(b) > MaxFileBytes:
			all.warn(rel, 0, RuleTooLarge, "the file is larger than %d bytes and is not read", MaxFileBytes)
			return nil, rel, false
		}
		return b, rel, true
	}

	if present["package.json"] {
		if b, rel, ok := read("package.json"); ok {
			in := *base
			in.file, in.data = rel, b
			var lw []Warning
			in.runner, lw = nodeRunner(p, dir, present)
			set.NodeRunner = in.runner
			all.warns = append(all.warns, lw...)
			add(parseNPM(&in))
		}
	}
	if b, rel, ok := read(".vscode/tasks.json"); ok {
		in := *base
		in.file, in.data = rel, b
		add(parseVSCode(&in))
	}
	if name := first(present, makefileNames); name != "" {
		if b, rel, ok := read(name); ok {
			in := *base
			in.file, in.data = rel, b
			add(parseMake(&in))
		}
	}
	if name, w := justfileName(dir, names); w != nil {
		all.warns = append(all.warns, *w)
	} else if name != "" {
		if b, rel, ok := read(name); ok {
			in := *base
			in.file, in.data = rel, b
			add(parseJust(&in))
		}
	}
	if name := first(present, taskfileNames); name != "" {
		if b, rel, ok := read(name); ok {
			in := *base
			in.file, in.data = rel, b
			add(parseTaskfile(&in))
		}
	}
	set.Tasks = append(set.Tasks, all.tasks...)
	set.Helpers = all.helpers
	return set, all.warns
}

// cleanDir turns Options.Dir into a clean slash path inside the project.
func cleanDir(d string) (string, error) {
	if d == "" {
		return ".", nil
	}
	if strings.ContainsRune(d, 0) {
		return "", errors.New("the directory to read holds a NUL byte")
	}
	s := path.Clean(strings.ReplaceAll(d, `\`, "/"))
	if s == "." {
		return ".", nil
	}
	if !filepath.IsLocal(filepath.FromSlash(s)) || strings.HasPrefix(s, "/") || strings.Contains(s, ":") {
		return "", fmt.Errorf("the directory to read is not a relative path inside the project")
	}
	return s, nil
}

// listDir opens the directory read from the project's held root, one component at a
// time without following links, and lists its names.
func listDir(p *tools.Project, dir string) ([]string, error) {
	root, err := guard.OpenRoot(p, guard.Shared)
	if err != nil {
		return nil, err
	}
	held := []*guard.Dir{root}
	defer func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i].Close()
		}
	}()
	cur := root
	if dir != "." {
		for _, c := range strings.Split(dir, "/") {
			next, _, err := cur.OpenDir(c)
			switch {
			case errors.Is(err, guard.ErrLink):
				return nil, fmt.Errorf("the directory to read crosses a symbolic link or reparse point")
			case errors.Is(err, fs.ErrNotExist), errors.Is(err, guard.ErrNotDir):
				return nil, fmt.Errorf("the directory to read does not exist")
			case err != nil:
				return nil, fmt.Errorf("the directory to read could not be opened: %v", err)
			}
			held = append(held, next)
			cur = next
		}
	}
	return cur.Names()
}

func first(present map[string]bool, names []string) string {
	for _, n := range names {
		if present[n] {
			return n
		}
	}
	return ""
}

// justfileName finds the justfile as just does: a name equal to "justfile" in any
// letter case, or ".justfile"; more than one is just's own error.
func justfileName(dir string, names []string) (string, *Warning) {
	var found []string
	for _, n := range names {
		if strings.EqualFold(n, "justfile") || strings.EqualFold(n, ".justfile") {
			found = append(found, n)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", &Warning{File: path.Join(dir, found[0]), Rule: RuleMultipleFiles,
		Message: fmt.Sprintf("%d justfiles (%s); just refuses to choose, so none is read", len(found), strings.Join(found, ", "))}
}

// nodeRunner picks the runner of package.json scripts from the lockfiles: pnpm, then
// yarn, then bun, else npm (docs/project-tasks.md, "package.json"). The lockfiles are
// looked for in the directory read, then in each directory above it up to the
// project root (a workspace package's lockfile is at the workspace's root); the first
// directory holding one decides.
func nodeRunner(p *tools.Project, dir string, present map[string]bool) (string, []Warning) {
	for at := dir; ; at = path.Dir(at) {
		names := present
		if at != dir {
			listed, err := listDir(p, at)
			if err != nil {
				break
			}
			names = map[string]bool{}
			for _, n := range listed {
				names[n] = true
			}
		}
		runner := ""
		var seen []string
		runners := map[string]bool{}
		for _, l := range lockfiles {
			if names[l.name] {
				seen = append(seen, path.Join(at, l.name))
				runners[l.runner] = true
				if runner == "" {
					runner = l.runner
				}
			}
		}
		if runner != "" {
			if len(runners) > 1 {
				return runner, []Warning{{File: path.Join(dir, "package.json"), Rule: RuleLockfiles,
					Message: fmt.Sprintf("lockfiles of more than one package manager (%s); scripts run with %s", strings.Join(seen, ", "), runner)}}
			}
			return runner, nil
		}
		if at == "." {
			break
		}
	}
	return "npm", nil
}

// joinTarget joins the project's path and the directory read in the syntax of the
// target system, for ${workspaceFolder}.
func joinTarget(goos, root, dir string) string {
	if dir == "." {
		return root
	}
	sep := "/"
	if goos == "windows" {
		sep = `\`
		dir = strings.ReplaceAll(dir, "/", `\`)
	}
	return strings.TrimRight(root, `/\`) + sep + dir
}
