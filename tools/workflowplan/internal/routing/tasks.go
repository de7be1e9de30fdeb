package routing

import (
	"slices"
	"strconv"
	"strings"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// ProjectTask is a task the project declares for itself (docs/project-tasks.md), as
// routing sees it: values only, read by the caller from the bound project.
type ProjectTask struct {
	// ID is "<source>:<name>" (npm:dev, make:test, vscode:Build Release).
	ID string
	// Source is npm, vscode, make, just or task.
	Source string
	Name   string
	// Aliases are the other names the file gives the task (just, Taskfile).
	Aliases []string
	// Argv is what runs the task; Argv[0] is its runner (npm, pnpm, yarn, bun, make,
	// just, task, or a VS Code task's program or shell).
	Argv []string
	// Env: the task sets environment variables, so it never runs exactly what a
	// capability runs.
	Env bool
	// Definition is the texts the task runs; routing reads only which tools they name.
	Definition []string
	// Description is the file's own description of the task; its words count as
	// description evidence only, and it is never returned.
	Description string
	File        string
	Line        int
	// Available: Argv[0] resolves on the call's PATH.
	Available bool
}

// Project score levels (docs/tools/workflow_plan.md, "Project tasks").
const (
	// projectFiles: a catalog capability's project files, or a package.json script.
	projectFiles = 1
	// projectEntry: a task of the project's task runner files (Makefile, justfile,
	// Taskfile, .vscode/tasks.json), the project's own entry points.
	projectEntry = 2
)

// nameSynonyms are what the conventional task names mean in words: a "dev" script
// runs the development server in watch mode, "fmt" formats, "serve" starts a server.
var nameSynonyms = map[string][]string{
	"dev":   {"development", "watch"},
	"fmt":   {"format"},
	"serve": {"server"},
	"start": {"launch"},
}

// launchVerbs only say to start something: "start the dev server" names the dev
// task, not the start task, when the project has both.
var launchVerbs = []string{"start", "launch"}

// nodeRunners run package.json scripts; their word in a task names the project's
// scripts as a tool name does a capability.
var nodeRunners = []string{"npm", "pnpm", "yarn", "bun"}

// taskIdentity is a task's identity: the tokens of its name, its aliases and the
// meaning of a conventional name (nameSynonyms), what its file calls a task
// (kindWords), and for a package.json script, npm and the runner that runs it. The runners make, just and task are English words, so
// they count only when the task quotes the command ("make test"). name holds the
// identity without the runner words.
func taskIdentity(t *ProjectTask) (identity, name map[string]bool) {
	name = tokenSet(strings.Join(append([]string{t.Name}, t.Aliases...), " "))
	for _, n := range append([]string{t.Name}, t.Aliases...) {
		for _, s := range nameSynonyms[strings.ToLower(n)] {
			name[s] = true
		}
	}
	identity = make(map[string]bool, len(name)+3)
	for w := range name {
		identity[w] = true
	}
	identity[kindWords[t.Source]] = true
	switch t.Source {
	case "npm":
		identity["npm"] = true
		if len(t.Argv) > 0 {
			identity[strings.ToLower(t.Argv[0])] = true
		}
	case "vscode":
		identity["vscode"] = true
	}
	return identity, name
}

// kindWords are what each file calls its tasks: "run the dev script", "the build
// target", "the lint task".
var kindWords = map[string]string{"npm": "script", "make": "target", "just": "recipe", "task": "task", "vscode": "task"}

// taskOperations are the operations a task's own description says it performs
// ("Build the documentation site"): they count for the operation score only.
func taskOperations(t *ProjectTask) []string {
	var out []string
	desc := tokenSet(t.Description)
	for _, w := range append(slices.Clip(OperationWords), FormatWords...) {
		if desc[w] {
			out = append(out, w)
		}
	}
	return out
}

// taskQuote returns the words of the task's own command line the task quotes: the
// runner and the name ("make test", "just fmt", "yarn start", "npm run dev", "pnpm
// dev"); nil when it does not. npm runs a script only with run, except its own
// shorthands test and start; the other Node runners run one by its name too.
func taskQuote(said words, t *ProjectTask) []string {
	if len(t.Argv) == 0 || t.Source == "vscode" || strings.ContainsAny(t.Name, " \t") {
		return nil
	}
	runner, name := strings.ToLower(t.Argv[0]), strings.ToLower(t.Name)
	for i := 0; i+1 < len(said); i++ {
		if said[i] != runner {
			continue
		}
		if said[i+1] == name && (runner != "npm" || name == "test" || name == "start") {
			return []string{runner, name}
		}
		if t.Source == "npm" && said[i+1] == "run" && i+2 < len(said) && said[i+2] == name {
			return []string{runner, "run", name}
		}
	}
	return nil
}

// npmShorthand normalizes npm's, pnpm's and yarn's own shorthands for a script run:
// "npm test" and "npm start" run the test and start scripts as "npm run test" does
// (bun's "bun test" is its own test runner, not the script).
func npmShorthand(argv []string) []string {
	if len(argv) == 2 && (argv[0] == "npm" || argv[0] == "pnpm" || argv[0] == "yarn") && (argv[1] == "test" || argv[1] == "start") {
		return []string{argv[0], "run", argv[1]}
	}
	return argv
}

// sameCommand: a task without environment of its own runs exactly what one of the
// capability's tools runs (npm's shorthands count as what they stand for).
func sameCommand(t *ProjectTask, cp catalog.Capability) bool {
	if t.Env {
		return false
	}
	for _, tl := range cp.Tools {
		if slices.Equal(npmShorthand(tl.Argv), npmShorthand(t.Argv)) {
			return true
		}
	}
	return false
}

// runsCapability: the task is the project's own way of doing what the capability
// does, so the capability's project files yield to it: its definition runs one of
// the capability's tools ("prettier --write ." runs prettier, "go test ./..." runs
// go), or the capability runs the same package.json script with another runner than
// the project's ("npm test" where the project runs its scripts with bun).
func runsCapability(t *ProjectTask, cp catalog.Capability) bool {
	for _, tl := range cp.Tools {
		argv := npmShorthand(tl.Argv)
		if t.Source == "npm" && len(argv) == 3 && slices.Contains(nodeRunners, argv[0]) && argv[1] == "run" &&
			argv[2] == t.Name && len(t.Argv) > 0 && t.Argv[0] != argv[0] {
			return true
		}
	}
	said := map[string]bool{}
	for _, d := range t.Definition {
		for _, w := range commandWords(d) {
			said[w] = true
		}
	}
	return slices.ContainsFunc(cp.ToolNames(), func(n string) bool { return said[strings.ToLower(n)] })
}

// taskDescription is what the result says of a task: where it is declared and the
// runner's command, never the file's own text beyond the task's name.
func taskDescription(t *ProjectTask) string {
	where := t.File
	if t.Line > 0 {
		where += ":" + strconv.Itoa(t.Line)
	}
	if t.Source == "vscode" || len(t.Argv) == 0 {
		return "The project's own task, declared in " + where + "."
	}
	return "The project's own task, declared in " + where + ": " + strings.Join(t.Argv, " ") + "."
}

// taskCandidate is the candidate of a project task before scoring.
func taskCandidate(t *ProjectTask) Candidate {
	c := Candidate{Capability: t.ID, Description: taskDescription(t), SafetyClass: tools.ApprovalRequired,
		ProjectEvidence: []string{t.File}, NamedTools: []string{}, task: t}
	if len(t.Argv) > 0 {
		c.ConfiguredTools = []string{t.Argv[0]}
		if t.Available {
			name := t.Argv[0]
			c.AvailableTool = &name
		}
	} else {
		c.ConfiguredTools = []string{}
	}
	return c
}

// entryLevel is the project score a matching task gives.
func entryLevel(t *ProjectTask) int {
	if t.Source == "npm" {
		return projectFiles
	}
	return projectEntry
}

// countsForName: a word of the task that names a project task by its name. The
// generic words that are no operation (run, project, tool …) never do: "run the app"
// does not name a task called "Run Tests".
func countsForName(w string, generic, ops map[string]bool) bool {
	return !inSet(generic, w) || inSet(ops, w)
}

// nameMatches are the words of the task that name t: its name, aliases or their
// meaning, without the generic words that are no operation.
func nameMatches(words map[string]bool, name, generic, ops map[string]bool) []string {
	out := []string{}
	for _, w := range intersect(words, name) {
		if countsForName(w, generic, ops) {
			out = append(out, w)
		}
	}
	return out
}

// demoteLaunchVerbs: when some project task is named by a word that is not a launch
// verb, a task named only by a launch verb loses that word's discriminating weight
// ("start the dev server" is the dev task's, not the start task's).
func demoteLaunchVerbs(cands []Candidate) {
	named := false
	for _, c := range cands {
		if c.task != nil && slices.ContainsFunc(c.nameMatches, func(w string) bool { return !slices.Contains(launchVerbs, w) }) {
			named = true
		}
	}
	if !named {
		return
	}
	for i := range cands {
		c := &cands[i]
		if c.task == nil || c.quoted || len(c.nameMatches) == 0 ||
			slices.ContainsFunc(c.nameMatches, func(w string) bool { return !slices.Contains(launchVerbs, w) }) {
			continue
		}
		c.DiscriminatingMatches = slices.DeleteFunc(c.DiscriminatingMatches, func(w string) bool { return slices.Contains(launchVerbs, w) })
		c.DiscriminatingScore = len(c.DiscriminatingMatches)
		c.nameMatches = nil
	}
}
