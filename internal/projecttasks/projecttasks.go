package projecttasks

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Source is the kind of file a task is declared in; it is the first part of a task's id.
type Source string

const (
	SourceNPM    Source = "npm"    // package.json scripts, whatever the runner
	SourceVSCode Source = "vscode" // .vscode/tasks.json
	SourceMake   Source = "make"   // the Makefile's explicit targets
	SourceJust   Source = "just"   // justfile recipes
	SourceTask   Source = "task"   // Taskfile tasks
)

// sourceOrder is the order of the sources in a Set.
var sourceOrder = [...]Source{SourceNPM, SourceVSCode, SourceMake, SourceJust, SourceTask}

// Lang says how a task's Definition texts are interpreted.
type Lang string

const (
	// LangShell: each Definition text is a command line a shell runs (an npm script, a
	// make or just recipe line, a Taskfile command, a VS Code shell task's command line).
	// Make and just texts are as written, before the tool expands its own variables
	// ($(CC), {{name}}).
	LangShell Lang = "shell"
	// LangArgv: the Definition is an argv run without a shell (a VS Code process task);
	// it equals Argv.
	LangArgv Lang = "argv"
	// LangScript: the Definition is one script for an interpreter the file names (a
	// just recipe starting with #! or marked [script]); its first text is the shebang
	// or the interpreter attribute.
	LangScript Lang = "script"
)

// Budgets (docs/project-tasks.md, "Budgets").
const (
	// MaxFileBytes is the largest task file read; a larger one is skipped whole.
	MaxFileBytes = 1 << 20
	// MaxTasks is the most tasks (offered and helpers together) one Read returns; the
	// rest are skipped with one warning.
	MaxTasks = 500
	// MaxNameBytes is the longest task name accepted.
	MaxNameBytes = 128
	// MaxTextBytes bounds each list of a task's texts (its Definition, its Implicit
	// texts): what the shell classifier reads in full (host/classify's MaxCommandBytes)
	// and what one plan can show.
	MaxTextBytes = 64 << 10
	// maxJSONDepth bounds the nesting of tasks.json and package.json before they are
	// parsed, so a parser's recursion stays shallow whatever the input.
	maxJSONDepth = 64
)

// Task is one task a project declares.
type Task struct {
	// ID is "<source>:<name>", e.g. "npm:dev", "vscode:Build Release", "make:test".
	// It is unique within a Set (Tasks and Helpers together), not across directories.
	ID     string `json:"id"`
	Source Source `json:"source"`
	Name   string `json:"name"`
	// Argv is what runs the task: ["npm","run","dev"], ["make","test"], ["just","fmt"],
	// ["task","lint"], or for VS Code the process's argv or the shell's argv with the
	// command line as its last element. argv[0] is a bare name or a path as the file
	// wrote it; nothing is resolved.
	Argv []string `json:"argv"`
	// Cwd is the working directory to start Argv in, slash-separated and relative to the
	// project root ("." for the root). It never leaves the directory read.
	Cwd string `json:"cwd"`
	// Env holds the variables a VS Code task sets (options.env), for the runner to add.
	Env map[string]string `json:"env,omitempty"`
	// Lang says how Definition is interpreted.
	Lang Lang `json:"lang"`
	// Definition is the exact text(s) the task runs, in order: the script body, the
	// recipe lines (make's and just's @ - + prefixes removed), the Taskfile's
	// preconditions, status checks and commands, or the VS Code command line / argv.
	Definition []string `json:"definition"`
	// Implicit holds texts the tool may run through a shell when it runs this task that
	// are neither its Definition nor a Need's: make's $(shell …) and != lines and the
	// recipes of rules that are not tasks (pattern, suffix, special and conditional
	// ones), just's backtick and shell() expressions in assignments and parameter
	// defaults, Taskfile's sh: variables. They are for classification: a superset.
	Implicit []string `json:"implicit,omitempty"`
	// Needs lists the ids of tasks in the same file that running this one runs too (make
	// prerequisites that are targets, just dependencies, Taskfile deps and task: calls,
	// npm's pre<name>/post<name> scripts). They may be Helpers. See Set.RunTexts.
	Needs []string `json:"needs,omitempty"`
	// DefinitionSHA256 is the hex SHA-256 of the task's canonical encoding (source, name,
	// argv, cwd, env, lang, definition, implicit texts and the context the file gives it; see
	// docs/project-tasks.md, "Identity"): any edit of what runs changes it.
	DefinitionSHA256 string `json:"definition_sha256"`
	// File is where the task is defined, slash-separated and relative to the project
	// root; Line is the 1-based line of its name there.
	File string `json:"file"`
	Line int    `json:"line"`
	// Description is the file's own words for the task, if the format has them (VS Code
	// detail, just doc comment or [doc], Taskfile desc).
	Description string `json:"description,omitempty"`
	// Group is the VS Code group (build, test) or the just [group]; Default is true for
	// VS Code's default task of its group.
	Group   string `json:"group,omitempty"`
	Default bool   `json:"default,omitempty"`
	// Background is VS Code's isBackground: the task keeps running (a watcher, a server).
	Background bool `json:"background,omitempty"`
	// Aliases are other names the tool accepts for the task (just aliases, Taskfile
	// aliases). They are not ids.
	Aliases []string `json:"aliases,omitempty"`
	// Params are a just recipe's parameters. A required one (no default, not *) has to
	// be supplied after the name or just refuses to run the recipe.
	Params []Param `json:"params,omitempty"`
}

// Param is one parameter of a just recipe.
type Param struct {
	Name string `json:"name"`
	// Default is the default's expression as written ("" when there is none).
	Default string `json:"default,omitempty"`
	// Variadic is "+" (one or more) or "*" (zero or more), "" otherwise.
	Variadic string `json:"variadic,omitempty"`
	Required bool   `json:"required,omitempty"`
}

// Set is what Read found in one directory.
type Set struct {
	// Dir is the directory read, slash-separated, relative to the project root ("." for
	// the root).
	Dir string `json:"dir"`
	// NodeRunner is the runner package.json scripts run with: "npm", "pnpm", "yarn" or
	// "bun" ("" when there is no package.json).
	NodeRunner string `json:"node_runner,omitempty"`
	// Tasks are the tasks a user can run, by source (npm, vscode, make, just, task) and
	// then in file order.
	Tasks []Task `json:"tasks"`
	// Helpers are tasks the file marks as not for running directly (just [private] or
	// _name recipes, Taskfile internal tasks, VS Code hide). They are never offered, but
	// a task that Needs one runs it.
	Helpers []Task `json:"helpers,omitempty"`
}

// Lookup finds an offered task (never a helper) by id.
func (s *Set) Lookup(id string) (Task, bool) {
	for _, t := range s.Tasks {
		if t.ID == id {
			return t, true
		}
	}
	return Task{}, false
}

func (s *Set) any(id string) (*Task, bool) {
	for i := range s.Tasks {
		if s.Tasks[i].ID == id {
			return &s.Tasks[i], true
		}
	}
	for i := range s.Helpers {
		if s.Helpers[i].ID == id {
			return &s.Helpers[i], true
		}
	}
	return nil, false
}

// Text is one text a task runs, with the task it belongs to and how it is interpreted.
type Text struct {
	Task string `json:"task"`
	Lang Lang   `json:"lang"`
	Text string `json:"text"`
}

// RunTexts lists everything running the task id runs that the files declare: the
// task's Implicit texts, then each task it Needs (depth first, each once, their own
// Implicit texts and needs included), then its own Definition. A caller classifies every text; the class
// of the task is at least the highest of them. complete is false when id is unknown
// or a need could not be resolved in this Set (a Taskfile task of an included file):
// then something runs that the caller has not seen.
func (s *Set) RunTexts(id string) (texts []Text, complete bool) {
	t, ok := s.any(id)
	if !ok {
		return nil, false
	}
	seen := map[string]bool{}
	once := map[Text]bool{}
	complete = true
	emit := func(x Text) {
		key := Text{Lang: x.Lang, Text: x.Text}
		if !once[key] {
			once[key] = true
			texts = append(texts, x)
		}
	}
	var visit func(t *Task)
	visit = func(t *Task) {
		if seen[t.ID] {
			return
		}
		seen[t.ID] = true
		for _, x := range t.Implicit {
			emit(Text{Task: t.ID, Lang: LangShell, Text: x})
		}
		for _, n := range t.Needs {
			d, ok := s.any(n)
			if !ok {
				complete = false
				continue
			}
			visit(d)
		}
		if t.Lang == LangArgv {
			emit(Text{Task: t.ID, Lang: LangArgv, Text: strings.Join(t.Definition, " ")})
			return
		}
		for _, x := range t.Definition {
			emit(Text{Task: t.ID, Lang: t.Lang, Text: x})
		}
	}
	visit(t)
	return texts, complete
}

// Rule names why something was skipped; it is stable for callers and tests.
type Rule string

const (
	RuleUnreadable    Rule = "unreadable"     // the file could not be read through the guard
	RuleTooLarge      Rule = "file-too-large" // over MaxFileBytes
	RuleTooMany       Rule = "too-many-tasks" // over MaxTasks
	RuleEncoding      Rule = "encoding"       // not UTF-8
	RuleSyntax        Rule = "syntax"         // the file (or a part) does not parse
	RuleShape         Rule = "shape"          // a value of the wrong type or a missing field
	RuleName          Rule = "name"           // empty, control characters, not printable, starts with '-'
	RuleNameLength    Rule = "name-too-long"  // over MaxNameBytes
	RuleDuplicate     Rule = "duplicate"      // the same name defined twice
	RuleText          Rule = "text"           // a definition holding control characters
	RuleVersion       Rule = "version"        // a format version this reader does not read
	RuleVariable      Rule = "variable"       // a ${…} variable other than ${workspaceFolder}
	RuleCwd           Rule = "cwd"            // a working directory outside the directory read
	RuleDependsOn     Rule = "depends-on"     // VS Code dependsOn
	RuleNoCommand     Rule = "no-command"     // nothing to run
	RuleShell         Rule = "shell"          // a VS Code shell configuration not understood
	RuleConditional   Rule = "conditional"    // a make target defined inside ifeq/ifdef
	RuleNotUnderstood Rule = "not-understood" // a construct the parser does not know
	RuleUnknownTask   Rule = "unknown-task"   // a dependency or alias naming no task
	RuleLockfiles     Rule = "lockfiles"      // more than one package manager's lockfile
	RuleDir           Rule = "dir"            // the directory asked for cannot be read
	RuleInclude       Rule = "include"        // the file includes others, which are not read
	RuleOverride      Rule = "override"       // a later definition replaces an earlier one
	RuleMultipleFiles Rule = "multiple-files" // more than one candidate file (justfile)
	RuleRecipePrefix  Rule = "recipe-prefix"  // make's .RECIPEPREFIX
)

// Warning says what was skipped and why. It names the file, the line (0 when it is
// about the whole file) and the rule; it quotes a task name only when the name itself
// is acceptable, and never other content of the file.
type Warning struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Rule    Rule   `json:"rule"`
	Message string `json:"message"`
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s (%s)", w.File, w.Line, w.Message, w.Rule)
	}
	return fmt.Sprintf("%s: %s (%s)", w.File, w.Message, w.Rule)
}

// checkName applies the rules every task name must pass (docs/project-tasks.md,
// "Names"). The returned message never quotes the name.
func checkName(name string) (Rule, string, bool) {
	switch {
	case len(name) > MaxNameBytes:
		return RuleNameLength, fmt.Sprintf("a task name of %d bytes is longer than %d", len(name), MaxNameBytes), false
	case strings.TrimSpace(name) == "":
		return RuleName, "a task name is empty", false
	case !utf8.ValidString(name):
		return RuleName, "a task name is not valid UTF-8", false
	case strings.HasPrefix(name, "-"):
		return RuleName, "a task name starts with '-', so its runner would read it as an option", false
	}
	for _, r := range name {
		if r != ' ' && !unicode.IsPrint(r) {
			return RuleName, fmt.Sprintf("a task name holds the control or non-printable character %U", r), false
		}
	}
	return "", "", true
}

// checkText refuses a definition text the shell classifier could be fooled by or a
// terminal could hide: invalid UTF-8, C0 controls other than tab, LF and CR, DEL and C1
// controls, and Unicode format characters (bidirectional overrides and the like).
func checkText(s string) (string, bool) {
	if !utf8.ValidString(s) {
		return "a definition is not valid UTF-8", false
	}
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return fmt.Sprintf("a definition holds the control character %U", r), false
		case unicode.Is(unicode.Cf, r) && r != '\u200d' && r != '\ufeff':
			return fmt.Sprintf("a definition holds the format character %U", r), false
		}
	}
	return "", true
}

// identity computes DefinitionSHA256: the SHA-256 of a length-prefixed encoding of the
// task's fields and context, so that no two different tasks share an encoding
// (docs/project-tasks.md, "Identity").
func identity(t *Task, context []string) string {
	h := sha256.New()
	put := func(s string) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	list := func(l []string) {
		put(fmt.Sprint(len(l)))
		for _, s := range l {
			put(s)
		}
	}
	put("wda.projecttask.v1")
	put(string(t.Source))
	put(t.Name)
	list(t.Argv)
	put(t.Cwd)
	keys := make([]string, 0, len(t.Env))
	for k := range t.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	env := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		env = append(env, k, t.Env[k])
	}
	list(env)
	put(string(t.Lang))
	list(t.Definition)
	list(t.Implicit)
	list(context)
	return hex.EncodeToString(h.Sum(nil))
}

// fileDigest is the context of formats where the whole file shapes what a task does
// (variables, settings, rules of other targets): make, just and Taskfile.
func fileDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return "file-sha256:" + hex.EncodeToString(sum[:])
}
