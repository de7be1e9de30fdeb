package routing

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// Selection statuses.
const (
	Selected           = "selected"
	Ambiguous          = "ambiguous"
	MatchedUnavailable = "matched_unavailable"
	NoMatch            = "no_match"
	// PackageSetup: the task installs a package; no catalog capability does, so the
	// route is package_search then package_install.
	PackageSetup = "package_setup"
	// OtherTool: the task is a question another tool of this server answers (what is
	// installed, the MCP configuration, the audit log, a run in WSL); next_tool names it.
	OtherTool = "other_tool"
)

// Unresolved is the execute phase's safety label when no capability is selected.
const Unresolved tools.Class = "unresolved"

// GenericWords name operations rather than a subject: they count as identity evidence
// but never discriminate one capability from another.
var GenericWords = []string{"build", "check", "compile", "create", "current", "inspect", "lint", "package",
	"plan", "project", "route", "run", "setup", "test", "tool", "workflow"}

// OperationWords are the generic words that name what is done to the code. When a task
// uses one that some capability has, a capability without any of the task's
// operations ranks below every capability with one: "lint the Go code" must not run
// the Go tests.
var OperationWords = []string{"build", "check", "compile", "create", "inspect", "lint", "test"}

// FormatWords are operations that are not generic: they discriminate as well. "format"
// rewrites the sources, "formatting" and "formatted" ask about them: "check the
// formatting" must reach a formatting report, never a rewrite or go vet.
var FormatWords = []string{"format", "reformat", "formatting", "formatted", "unformatted"}

// ActionWords name what a capability that needs approval does. Project files pick such
// a capability only when the task names one of its actions in words (or quotes its
// command): "format the code" in a Go module is format-go, "deploy the go app" is not
// run-go.
var ActionWords = []string{"format", "reformat", "formatter", "restore", "install", "reinstall", "start", "launch"}

// codeOperations are the operations on the code that make a task a capability's even
// when it names another tool's subject ("run the MCP server tests" runs the tests).
// check and inspect are left out: checking the MCP configuration is mcp_audit's.
var codeOperations = []string{"build", "compile", "lint", "test", "format", "reformat", "formatting", "formatted",
	"unformatted", "restore", "vet", "clippy", "configure"}

// launchObjects make "run the app" mean starting it: with run and no operation word,
// they add "start".
var launchObjects = []string{"app", "application", "program", "binary", "server", "executable", "exe", "service", "main"}

// restoreVerbs and restoreObjects make "download the dependencies" or "sync the
// virtual environment" mean restoring them: together they add "restore".
var (
	restoreVerbs   = []string{"download", "fetch", "get", "pull", "sync", "restore", "install", "reinstall"}
	restoreObjects = []string{"dependencies", "dependency", "deps", "requirements", "node_modules", "venv", "virtualenv", "virtual", "lockfile"}
)

// Availability reports the tool a capability would run with (its first configured tool
// whose executable resolves), or ok=false when none does.
type Availability func(id string) (toolName string, ok bool)

// Request is one routing question.
type Request struct {
	Task, Context string
	// Available labels availability; nil means nothing can run.
	Available Availability
	// Project is what the project's own files showed; nil when they were not inspected.
	Project *ProjectEvidence
	// Tasks are the tasks the project declares for itself (docs/project-tasks.md); each
	// is a candidate, unless it runs exactly what a capability runs.
	Tasks []ProjectTask
}

// ProjectEvidence is what the project's root directory showed: which of the catalog's
// project_files entries are there, which files were read for facts and which could not
// be used. It never carries file content.
type ProjectEvidence struct {
	Inspected bool          `json:"inspected" jsonschema:"required,description=false when no project directory was bound to the call."`
	Found     []string      `json:"found,omitempty" jsonschema:"description=The catalog's project_files entries present in the project's root."`
	Files     []string      `json:"files,omitempty" jsonschema:"description=Full view: the root entries that made them present (at most 32)."`
	Read      []string      `json:"read,omitempty" jsonschema:"description=Full view: files whose content was read for facts (file#key entries)."`
	Skipped   []SkippedFile `json:"skipped,omitempty" jsonschema:"description=Files that matched an entry but were not used as evidence."`
	// TaskWarnings summarises what the reader of the project's tasks skipped.
	TaskWarnings *TaskWarnings `json:"task_warnings,omitempty" jsonschema:"description=Task definitions that were skipped (docs/project-tasks.md); routing went on without them."`

	compact bool
}

// TaskWarnings is a brief of the project task reader's warnings: how many, and the
// first few as "file:line rule".
type TaskWarnings struct {
	Count int      `json:"count" jsonschema:"required,minimum=1"`
	First []string `json:"first" jsonschema:"required,description=The first few\\, as file:line rule."`
}

// SkippedFile is a file that was not used as evidence, and why.
type SkippedFile struct {
	File   string `json:"file" jsonschema:"required"`
	Reason string `json:"reason" jsonschema:"required"`
}

// Candidate is the evidence for one capability or project task. The full view
// (detail "full") has every field; the compact view keeps only what decided the rank
// (docs/tools/workflow_plan.md, "Output").
type Candidate struct {
	Capability            string      `json:"capability" jsonschema:"required,description=A catalog capability id\\, or a project task's <source>:<name>."`
	Score                 int         `json:"score,omitempty" jsonschema:"description=Full view: the identity score\\, kept for older readers."`
	OperationScore        int         `json:"operation_score,omitempty" jsonschema:"description=Full view: 1 when it performs one of the task's operations (build test lint …) or the task names none."`
	IdentityScore         int         `json:"identity_score,omitempty" jsonschema:"description=Full view."`
	DiscriminatingScore   int         `json:"discriminating_score,omitempty" jsonschema:"description=Full view: identity overlap without generic operation words."`
	ProjectScore          int         `json:"project_score,omitempty" jsonschema:"minimum=0,maximum=2,description=1: the project's files show it (or a package.json script the task names); 2: a task of the project's Makefile\\, justfile\\, Taskfile or VS Code tasks the task names."`
	DescriptionScore      int         `json:"description_score,omitempty" jsonschema:"description=Full view: overlap with the description's content words (only separates ties)."`
	IdentityMatches       []string    `json:"identity_matches,omitempty" jsonschema:"description=Task words found in its id\\, tags\\, tool names or task name."`
	DiscriminatingMatches []string    `json:"discriminating_matches,omitempty" jsonschema:"description=Those that are not generic operation words."`
	DescriptionMatches    []string    `json:"description_matches,omitempty"`
	ProjectEvidence       []string    `json:"project_evidence,omitempty" jsonschema:"description=Its project_files entries found in the project's root\\, the project tasks that run exactly its command\\, or a project task's file."`
	NamedTools            []string    `json:"named_tools,omitempty" jsonschema:"description=Full view: configured tools the task names."`
	Description           string      `json:"description,omitempty"`
	SafetyClass           tools.Class `json:"safety_class,omitempty" jsonschema:"description=Base safety class (a project task: approval-required\\, capability_run decides the final class)."`
	AvailableTool         *string     `json:"available_tool,omitempty" jsonschema:"nullable,description=The tool that would run; null when none of the configured tools is installed."`
	ConfiguredTools       []string    `json:"configured_tools,omitempty" jsonschema:"description=Full view."`

	// view is how the candidate marshals (compact.go).
	view view

	// task is the project task this candidate is (nil for a catalog capability);
	// declared are the project's tasks that run exactly this capability's command.
	task     *ProjectTask
	declared []*ProjectTask
	// namedDeclared are the declared tasks the task names.
	namedDeclared []*ProjectTask
	// nameMatches are the task's words that name the project task; quoted: the task
	// quotes its command line.
	nameMatches []string
	quoted      bool
}

func (c *Candidate) rank() [5]int {
	return [5]int{c.OperationScore, c.DiscriminatingScore, c.ProjectScore, c.IdentityScore, c.DescriptionScore}
}

// Discriminator explains an unresolved route. Which fields appear depends on the
// outcome: ambiguous carries rank, candidates and availability; matched_unavailable
// carries rank, candidates and configured_tools; no_match carries candidates only.
type Discriminator struct {
	Rank            []int               `json:"rank,omitempty" jsonschema:"description=Scores of the top rank: operation then discriminating then project then identity then description."`
	Candidates      []string            `json:"candidates" jsonschema:"required"`
	Availability    map[string]*string  `json:"availability,omitempty" jsonschema:"description=Tool each tied candidate would run (null when none is installed). Availability never breaks a tie."`
	ConfiguredTools map[string][]string `json:"configured_tools,omitempty"`
	Reason          string              `json:"reason" jsonschema:"required"`
}

// JSONSchemaExtend lets availability values be null (no tool installed), which the
// reflected map-of-pointer schema would not allow.
func (Discriminator) JSONSchemaExtend(s *jsonschema.Schema) {
	if p, ok := s.Properties.Get("availability"); ok {
		p.AdditionalProperties = &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "string"}, {Type: "null"}}}
	}
}

// Setup is the package-setup route of an install task.
type Setup struct {
	Query  string `json:"query" jsonschema:"required,minLength=1,maxLength=160,description=The program the task names (as written)."`
	Source string `json:"source,omitempty" jsonschema:"enum=winget,enum=chocolatey,enum=scoop,description=The package manager the task names; absent means package_search's default."`
	// SearchArguments is the exact argument object of the first call, so a caller
	// passes it on unchanged.
	SearchArguments map[string]any `json:"search_arguments" jsonschema:"required,description=The arguments of the package_search call that starts the setup."`
	// Action is package_install's action for the id found: upgrade or uninstall search
	// the installed packages; absent is an install.
	Action string `json:"action,omitempty" jsonschema:"enum=upgrade,enum=uninstall"`
}

// Phase is one step of the four-phase plan.
type Phase struct {
	Phase       string      `json:"phase" jsonschema:"required,enum=inspect,enum=route,enum=execute,enum=verify"`
	Entry       string      `json:"entry,omitempty" jsonschema:"description=Full view."`
	Action      string      `json:"action" jsonschema:"required"`
	Exit        string      `json:"exit,omitempty" jsonschema:"description=Full view."`
	SafetyClass tools.Class `json:"safety_class" jsonschema:"required"`

	// Brief is the compact view's action: what the next step needs, once.
	Brief   string `json:"-"`
	compact bool
}

// Route is the routing outcome for one task.
type Route struct {
	SelectionStatus  string     `json:"selection_status" jsonschema:"enum=selected,enum=ambiguous,enum=matched_unavailable,enum=no_match,enum=package_setup,enum=other_tool"`
	MatchedCandidate *Candidate `json:"matched_candidate" jsonschema:"nullable,description=The unique best candidate (selected or matched_unavailable)."`
	// SelectedCandidate is MatchedCandidate when it is selected. The result names it by
	// id (Selected): it used to be a second full copy of matched_candidate.
	SelectedCandidate     *Candidate      `json:"-"`
	Selected              *string         `json:"selected_candidate" jsonschema:"nullable,description=The id of matched_candidate when it is selected."`
	RouteDiscriminator    *Discriminator  `json:"route_discriminator" jsonschema:"nullable"`
	PackageSetup          *Setup          `json:"package_setup,omitempty" jsonschema:"description=Only with selection_status package_setup."`
	NextTool              *NextTool       `json:"next_tool" jsonschema:"nullable,description=The call to make next: capability_run for selected\\, package_search for package_setup\\, the other tool for other_tool; null otherwise."`
	ProjectEvidence       ProjectEvidence `json:"project_evidence" jsonschema:"description=What the project's own files showed (never their content)."`
	CandidateCapabilities Candidates      `json:"candidate_capabilities" jsonschema:"description=Best first: the candidates with evidence (full view: every capability and project task)."`
	Phases                []Phase         `json:"phases" jsonschema:"description=Always four: inspect then route then execute then verify."`
}

// Plan routes one task over the catalog (docs/tools/workflow_plan.md).
func Plan(cat *catalog.Catalog, req Request) Route {
	text := withoutIdioms(req.Task + " " + req.Context)
	words := tokenSet(text)
	if words["run"] && slices.ContainsFunc(launchObjects, func(o string) bool { return words[o] }) &&
		!slices.ContainsFunc(OperationWords, func(o string) bool { return words[o] }) {
		words["start"] = true
	}
	if slices.ContainsFunc(restoreVerbs, func(o string) bool { return words[o] }) && slices.ContainsFunc(restoreObjects, func(o string) bool { return words[o] }) {
		words["restore"] = true
	}
	said := commandWords(text)
	stop := wordSet(GenericWords)
	project := ProjectEvidence{Found: []string{}, Files: []string{}, Read: []string{}, Skipped: []SkippedFile{}}
	if req.Project != nil {
		project = *req.Project
		// The output schema wants arrays: a reader that reports nothing gives [].
		for _, l := range []*[]string{&project.Found, &project.Files, &project.Read} {
			if *l == nil {
				*l = []string{}
			}
		}
		if project.Skipped == nil {
			project.Skipped = []SkippedFile{}
		}
	}
	found := wordSet(project.Found)

	// The capabilities once: the tasks are matched against each, and cat.Get copies.
	ids := cat.IDs()
	caps := make([]catalog.Capability, len(ids))
	for i, id := range ids {
		caps[i], _ = cat.Get(id)
	}
	cands := make([]Candidate, 0, len(ids)+len(req.Tasks))
	identities := map[string]map[string]bool{}
	commands := map[string]bool{}
	quotes := quotedCommands(cat, said)
	// A task that runs exactly what a capability runs is that capability: the
	// capability stands (its class is reviewed), with the task as its evidence.
	declared := map[string][]*ProjectTask{}
	var tasks []*ProjectTask
	for i := range req.Tasks {
		t := &req.Tasks[i]
		same := ""
		for i, cp := range caps {
			if sameCommand(t, cp) {
				same = ids[i]
				break
			}
		}
		if same != "" {
			declared[same] = append(declared[same], t)
		} else {
			tasks = append(tasks, t)
		}
	}
	for i, id := range ids {
		cp := caps[i]
		identity := tokenSet(id + " " + strings.ReplaceAll(id, "-", " ") + " " + strings.Join(cp.Tags, " ") + " " + strings.Join(cp.ToolNames(), " "))
		identities[id] = identity
		im := intersect(words, identity)
		dm := []string{}
		for _, t := range im {
			if !inSet(stop, t) {
				dm = append(dm, t)
			}
		}
		// A quoted command line counts every quoted argument, generic or not.
		for _, a := range quotes[id] {
			commands[id] = true
			if !slices.Contains(im, a) {
				im = append(im, a)
			}
			if !slices.Contains(dm, a) {
				dm = append(dm, a)
			}
		}
		slices.Sort(im)
		slices.Sort(dm)
		desc := []string{}
		for _, t := range intersect(words, tokenSet(cp.Description)) {
			if !inSet(stop, t) && !inSet(stopWords, t) {
				desc = append(desc, t)
			}
		}
		evidence := []string{}
		for _, pf := range cp.ProjectFiles {
			if found[pf] && !slices.Contains(evidence, pf) {
				evidence = append(evidence, pf)
			}
		}
		named := []string{}
		for _, n := range cp.ToolNames() {
			if words[strings.ToLower(n)] && !slices.Contains(named, n) {
				named = append(named, n)
			}
		}
		c := Candidate{
			Capability: id, Score: len(im), IdentityScore: len(im), DiscriminatingScore: len(dm),
			DescriptionScore: len(desc), IdentityMatches: im, DiscriminatingMatches: dm, DescriptionMatches: desc,
			ProjectEvidence: evidence, NamedTools: named,
			Description: cp.Description, SafetyClass: cp.Safety, ConfiguredTools: cp.ToolNames(),
			declared: declared[id],
		}
		for _, t := range c.declared {
			c.ProjectEvidence = append(c.ProjectEvidence, t.ID)
		}
		if req.Available != nil {
			if name, ok := req.Available(id); ok {
				c.AvailableTool = &name
			}
		}
		cands = append(cands, c)
	}
	ops := wordSet(OperationWords)
	for _, t := range tasks {
		c := taskCandidate(t)
		identity, name := taskIdentity(t)
		im := intersect(words, identity)
		// What the task's description says it does counts for the operation only.
		identities[t.ID] = maps.Clone(identity)
		for _, w := range taskOperations(t) {
			identities[t.ID][w] = true
		}
		c.nameMatches = nameMatches(words, name, stop, ops)
		if q := taskQuote(said, t); q != nil {
			c.quoted, commands[t.ID] = true, true
			for _, a := range q {
				if !slices.Contains(im, a) {
					im = append(im, a)
				}
			}
			slices.Sort(im)
		}
		dm := []string{}
		for _, w := range im {
			if !inSet(stop, w) || c.quoted && slices.Contains(taskQuote(said, t), w) {
				dm = append(dm, w)
			}
		}
		desc := []string{}
		for _, w := range intersect(words, tokenSet(t.Description)) {
			if !inSet(stop, w) && !inSet(stopWords, w) {
				desc = append(desc, w)
			}
		}
		c.Score, c.IdentityScore, c.IdentityMatches = len(im), len(im), im
		c.DiscriminatingScore, c.DiscriminatingMatches = len(dm), dm
		c.DescriptionScore, c.DescriptionMatches = len(desc), desc
		cands = append(cands, c)
	}
	demoteLaunchVerbs(cands)
	score(cat, cands, words, identities, commands)
	slices.SortStableFunc(cands, func(a, b Candidate) int {
		ra, rb := a.rank(), b.rank()
		for i := range ra {
			if d := cmp.Compare(rb[i], ra[i]); d != 0 {
				return d
			}
		}
		return strings.Compare(a.Capability, b.Capability)
	})
	r := Route{CandidateCapabilities: cands, ProjectEvidence: project}
	decide(&r, cat, req, parseIntent(req.Task))
	if nt := otherTool(req.Task, &r, argvOf(cat, tasks)); nt != nil && leadsElsewhere(&r, nt) {
		r.SelectionStatus, r.NextTool = OtherTool, nt
		r.MatchedCandidate, r.SelectedCandidate, r.RouteDiscriminator, r.PackageSetup = nil, nil, nil, nil
	}
	nextCall(&r)
	r.Phases = phases(&r)
	if r.SelectedCandidate != nil {
		id := r.SelectedCandidate.Capability
		r.Selected = &id
	}
	return r
}

// leadsElsewhere decides between the capability route r and another tool's question
// (docs/tools/workflow_plan.md, "Other tools"): a run in isolation always goes to
// sandbox_run (with the capability's command when there is one); an install of a
// program stays package setup; a question (what is installed, which version, the
// audit log, a package search) goes to its tool; a subject (the MCP configuration,
// the AI setup) goes to its tool unless the task asks for an operation on the code
// that the best capability performs with real evidence ("run the MCP server tests"
// in a Go module runs the Go tests).
func leadsElsewhere(r *Route, nt *NextTool) bool {
	switch {
	case nt.Name == ToolSandboxRun:
		return true
	case r.SelectionStatus == PackageSetup:
		return false
	case !nt.weak:
		return true
	}
	top := r.CandidateCapabilities
	if len(top) == 0 || top[0].DiscriminatingScore == 0 && top[0].ProjectScore == 0 {
		return true
	}
	return !slices.ContainsFunc(top[0].IdentityMatches, func(t string) bool { return slices.Contains(codeOperations, t) })
}

// nextCall names the call a selected or package-setup route leads to.
func nextCall(r *Route) {
	switch r.SelectionStatus {
	case Selected:
		id := r.SelectedCandidate.Capability
		r.NextTool = &NextTool{Name: ToolCapabilityRun, Arguments: map[string]any{"capability": id},
			Class:  r.SelectedCandidate.SafetyClass,
			Reason: "Plan it (execute:false), review it, then run its execute_arguments."}
		if r.SelectedCandidate.task != nil {
			r.NextTool.Reason = "A project task: plan it (execute:false), review what it runs, then run its execute_arguments."
		}
	case PackageSetup:
		args := map[string]any{}
		for k, v := range r.PackageSetup.SearchArguments {
			args[k] = v
		}
		reason := "The task installs a program: package_search finds its exact id, then package_install plans the install."
		if a := r.PackageSetup.Action; a != "" {
			reason = "The task asks to " + a + " an installed program: package_search lists the installed ones with their exact ids, then package_install plans it with action " + a + "."
		}
		r.NextTool = &NextTool{Name: ToolPackageSearch, Arguments: args, Class: tools.ApprovalRequired, Reason: reason}
	}
}

// argvOf gives a capability's first configured argv, or a project task's argv.
func argvOf(cat *catalog.Catalog, tasks []*ProjectTask) catalogArgv {
	return func(id string) []string {
		for _, t := range tasks {
			if t.ID == id {
				return t.Argv
			}
		}
		cp, ok := cat.Get(id)
		if !ok || len(cp.Tools) == 0 {
			return nil
		}
		return cp.Tools[0].Argv
	}
}

// commandWords splits text into words as a command line writes them: lowercased,
// without surrounding quotes or brackets, and without a sentence's final dot (except
// for the arguments "." and "./..." themselves).
func commandWords(text string) words {
	var out words
	for _, f := range strings.Fields(strings.ToLower(text)) {
		f = strings.Trim(f, "\"'`()[]{}<>,;:!?")
		if f != "." && !strings.HasSuffix(f, "/...") {
			f = strings.TrimRight(f, ".")
		}
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// plainWord: a word that could be a subcommand or an argument, not an option or a
// function word ("npm run build in the project").
func plainWord(w string) bool {
	return w != "" && w[0] != '-' && !stopWords[w] && !slices.Contains([]string{"now", "again", "first", "then", "only"}, w)
}

// quotedCommands returns, per capability, the arguments of its command line the task
// quotes (docs/tools/workflow_plan.md, "Evidence"). A capability whose whole command
// is quoted (the current directory arguments "." and "./..." may be left out) shuts
// out the ones of the same tool quoted only in part: "dotnet format" is format-dotnet,
// not formatting-dotnet's "dotnet format --verify-no-changes".
func quotedCommands(cat *catalog.Catalog, said words) map[string][]string {
	type quote struct {
		args     []string
		complete bool
	}
	byID := map[string]quote{}
	complete := map[string]bool{} // tools with a complete quote
	for _, id := range cat.IDs() {
		cp, _ := cat.Get(id)
		for _, tl := range cp.Tools {
			args, whole := commandEvidence(said, tl.Argv)
			if len(args) > len(byID[id].args) || whole && !byID[id].complete && len(args) > 0 {
				byID[id] = quote{args, whole}
			}
			if whole && len(args) > 0 {
				complete[strings.ToLower(tl.Argv[0])] = true
			}
		}
	}
	out := map[string][]string{}
	for id, q := range byID {
		cp, _ := cat.Get(id)
		if len(q.args) == 0 || !q.complete && slices.ContainsFunc(cp.Tools, func(t catalog.Tool) bool { return complete[strings.ToLower(t.Argv[0])] }) {
			continue
		}
		out[id] = q.args
	}
	return out
}

// commandEvidence returns the arguments of argv the task quotes right after the tool's
// name, in order, lowercased (at least argv[1] must follow the tool), and whether the
// quote is the whole command line: every argument but "." and "./..." quoted. A quote
// in part that the task continues with another word (not an option, not a function
// word) is another command of the tool and counts for nothing.
//
// commandWords and plainWord are the command line's view of the task's words.
func commandEvidence(said words, argv []string) ([]string, bool) {
	if len(argv) < 2 {
		return nil, false
	}
	tool := strings.ToLower(argv[0])
	var best []string
	bestWhole := false
	for i, w := range said {
		if w != tool {
			continue
		}
		var got []string
		whole := true
		j := i + 1
		for _, a := range argv[1:] {
			a = strings.ToLower(a)
			if j < len(said) && said[j] == a {
				got = append(got, a)
				j++
				continue
			}
			if a == "." || a == "./..." {
				continue
			}
			whole = false
			// The task goes on with another command of the tool ("npm run test" is not
			// "npm run build", "go mod tidy" not "go mod download"): no evidence.
			if len(got) > 0 && j < len(said) && plainWord(said[j]) {
				got = nil
			}
			break
		}
		if len(got) > len(best) {
			best, bestWhole = got, whole
		}
	}
	return best, bestWhole && len(best) > 0
}

// score sets the operation and project scores, which depend on every candidate.
// commands holds the capabilities whose command line the task quotes.
func score(cat *catalog.Catalog, cands []Candidate, words map[string]bool, identities map[string]map[string]bool, commands map[string]bool) {
	// The task's operations that some capability performs; none means no operation
	// constrains the route.
	var ops []string
	for _, w := range append(slices.Clip(OperationWords), FormatWords...) {
		if !words[w] {
			continue
		}
		for _, identity := range identities {
			if identity[w] {
				ops = append(ops, w)
				break
			}
		}
	}
	// Does any capability match a discriminating word of the task? Then the task has
	// named its subject, and project files only weigh for candidates that match it.
	named := false
	for _, c := range cands {
		named = named || c.DiscriminatingScore > 0
	}
	generic, opSet := wordSet(GenericWords), wordSet(OperationWords)
	for i := range cands {
		c := &cands[i]
		c.OperationScore = 1
		if len(ops) > 0 && !commands[c.Capability] && !slices.ContainsFunc(ops, func(w string) bool { return identities[c.Capability][w] }) {
			c.OperationScore = 0
		}
		// Project files say which tool of an operation the project uses, never whether
		// to do something (identity must match), never against the task's own subject,
		// and never pick a capability that needs approval on generic words: its action
		// must be asked for in words (or its command quoted).
		asked := c.SafetyClass == tools.ReadOnly || c.SafetyClass == tools.Reversible ||
			c.SafetyClass == tools.ApprovalRequired && (commands[c.Capability] ||
				slices.ContainsFunc(ActionWords, func(w string) bool { return words[w] && identities[c.Capability][w] }))
		subject := !named || c.DiscriminatingScore > 0
		if c.task == nil && len(c.ProjectEvidence) > len(c.declared) && c.IdentityScore > 0 && subject && asked {
			c.ProjectScore = projectFiles
		}
		// The project's own tasks (docs/tools/workflow_plan.md, "Project tasks"): one
		// the task names, by its name or its quoted command, weighs as much as project
		// files when it is a package.json script, more when it is an entry point of the
		// project's task runner files; a capability that runs exactly a task's command
		// carries that task's weight.
		if c.task != nil && (len(c.nameMatches) > 0 || c.quoted) && subject {
			c.ProjectScore = entryLevel(c.task)
		}
		for _, t := range c.declared {
			_, name := taskIdentity(t)
			if len(nameMatches(words, name, generic, opSet)) > 0 && subject {
				c.ProjectScore = max(c.ProjectScore, entryLevel(t))
				c.namedDeclared = append(c.namedDeclared, t)
			}
		}
	}
	// A capability whose project evidence is only its files yields to a project task
	// the task names that runs it, the project's own way of doing it: "format the
	// code" is the project's format script when that script runs prettier.
	var namedTasks []*ProjectTask
	for i := range cands {
		c := &cands[i]
		if c.task != nil && c.ProjectScore > 0 {
			namedTasks = append(namedTasks, c.task)
		}
		namedTasks = append(namedTasks, c.namedDeclared...)
	}
	for i := range cands {
		c := &cands[i]
		if c.task != nil || c.ProjectScore == 0 || len(c.namedDeclared) > 0 {
			continue
		}
		cp, _ := cat.Get(c.Capability)
		if slices.ContainsFunc(namedTasks, func(t *ProjectTask) bool { return runsCapability(t, cp) }) {
			c.ProjectScore = 0
		}
	}
}

func decide(r *Route, cat *catalog.Catalog, req Request, in intent) {
	cands := r.CandidateCapabilities
	if in.verb != "" && !in.projectDeps() {
		decideIntent(r, in)
		return
	}
	if len(cands) == 0 || cands[0].DiscriminatingScore == 0 && cands[0].ProjectScore == 0 {
		r.SelectionStatus = NoMatch
		r.RouteDiscriminator = noMatch(cands, cat, req)
		if in.verb != "" {
			r.RouteDiscriminator = &Discriminator{Candidates: []string{}, Reason: "The task installs the project's own dependencies, and no catalog capability restores them for this project (a restore-* capability whose project files, such as a lockfile, are in its root); package setup installs machine packages (WinGet, Chocolatey, Scoop) only."}
		}
		return
	}
	top := cands[0].rank()
	var tied []Candidate
	for _, c := range cands {
		if c.rank() == top {
			tied = append(tied, c)
		}
	}
	rank := top[:]
	if len(tied) > 1 {
		r.SelectionStatus = Ambiguous
		d := &Discriminator{Rank: rank, Availability: map[string]*string{},
			Reason: "These candidates are tied on identical semantic evidence (task words and project files); tool availability does not break the tie. Ask which one is meant, or add a discriminating word (language, ecosystem or tool)."}
		for _, c := range tied {
			d.Candidates = append(d.Candidates, c.Capability)
			d.Availability[c.Capability] = c.AvailableTool
		}
		r.RouteDiscriminator = d
		return
	}
	m := cands[0]
	r.MatchedCandidate = &m
	switch {
	case m.AvailableTool != nil && (len(m.NamedTools) == 0 || slices.Contains(m.NamedTools, *m.AvailableTool)):
		r.SelectionStatus = Selected
		s := m
		r.SelectedCandidate = &s
		return
	case m.AvailableTool != nil:
		r.SelectionStatus = MatchedUnavailable
		r.RouteDiscriminator = &Discriminator{Rank: rank, Candidates: []string{m.Capability},
			ConfiguredTools: map[string][]string{m.Capability: m.ConfiguredTools},
			Reason: "The task names " + strings.Join(m.NamedTools, ", ") + ", but this capability would run " + *m.AvailableTool +
				" (its first installed tool) and capability_run cannot choose another; install the named tool, or add a capability whose first tool it is."}
		return
	}
	r.SelectionStatus = MatchedUnavailable
	r.RouteDiscriminator = &Discriminator{Rank: rank, Candidates: []string{m.Capability},
		ConfiguredTools: map[string][]string{m.Capability: m.ConfiguredTools},
		Reason:          "The uniquely strongest match has none of its configured tools installed; a weaker candidate is not used as a fallback."}
}

// noMatch explains why nothing was selected, naming what would have discriminated.
func noMatch(cands []Candidate, cat *catalog.Catalog, req Request) *Discriminator {
	var ids, offOperation []string
	identity, described := false, false
	for _, c := range cands {
		if c.IdentityScore > 0 || c.DescriptionScore > 0 {
			if len(ids) < 5 {
				ids = append(ids, c.Capability)
			}
			identity = identity || c.IdentityScore > 0
			described = described || c.DescriptionScore > 0
		}
		if c.OperationScore == 0 && c.DiscriminatingScore > 0 {
			offOperation = append(offOperation, c.Capability)
		}
	}
	var reason string
	switch {
	case len(offOperation) > 0:
		reason = "The capabilities that match the task's subject (" + strings.Join(offOperation, ", ") +
			") do not perform its operation, and those that do match nothing else; the catalog has no capability for this combination."
	case identity && described:
		reason = "Only generic identity overlap (operation words such as run, test, build) and description-only similarity were seen; neither selects a capability."
	case identity:
		reason = "Only generic identity overlap (operation words such as run, test, build) was seen; it does not select a capability."
	case described:
		reason = "Only description-only similarity was seen; descriptions never select a capability by themselves."
	default:
		return nil
	}
	if len(offOperation) == 0 {
		reason += " " + projectHint(cands, cat, req.Project) + " Name the language, ecosystem or tool; the catalog runs " +
			strings.Join(toolVocabulary(cat), ", ") + "."
	}
	return &Discriminator{Candidates: ids, Reason: reason}
}

// projectHint says what project evidence would have decided the route.
func projectHint(cands []Candidate, cat *catalog.Catalog, p *ProjectEvidence) string {
	if p == nil || !p.Inspected {
		return "The project's files were not inspected."
	}
	var markers []string
	for _, c := range cands {
		if c.IdentityScore == 0 {
			continue
		}
		// A marker the root has did not decide it (its capability needs the task to
		// name its action, or matched only a generic word): it is not what is missing.
		cp, _ := cat.Get(c.Capability)
		if len(cp.ProjectFiles) > 0 && !slices.Contains(markers, cp.ProjectFiles[0]) && !slices.Contains(p.Found, cp.ProjectFiles[0]) {
			markers = append(markers, cp.ProjectFiles[0])
		}
	}
	if len(markers) == 0 {
		return "No project file decides it."
	}
	return "The project's root has none of the files that would decide it (" + strings.Join(markers, ", ") + ")."
}

// toolVocabulary is the catalog's distinct tool names, sorted.
func toolVocabulary(cat *catalog.Catalog) []string {
	var names []string
	for _, id := range cat.IDs() {
		cp, _ := cat.Get(id)
		for _, n := range cp.ToolNames() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return names
}

// inSet reports whether t, or the singular the tokenizer derives from it, is in set:
// "tests" is as generic as "test".
func inSet(set map[string]bool, t string) bool {
	if set[t] {
		return true
	}
	single, plural := strings.CutSuffix(t, "s")
	return plural && len(t) > 3 && !strings.HasSuffix(single, "s") && set[single]
}

func wordSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
