package routing

import (
	"cmp"
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
}

// ProjectEvidence is what the project's root directory showed: which of the catalog's
// project_files entries are there, which files were read for facts and which could not
// be used. It never carries file content.
type ProjectEvidence struct {
	Inspected bool          `json:"inspected" jsonschema:"required,description=false when no project directory was bound to the call."`
	Found     []string      `json:"found" jsonschema:"required,description=The catalog's project_files entries present in the project's root."`
	Files     []string      `json:"files" jsonschema:"required,description=The root entries that made them present (at most 32)."`
	Read      []string      `json:"read" jsonschema:"required,description=Files whose content was read for facts (file#key entries)."`
	Skipped   []SkippedFile `json:"skipped" jsonschema:"required,description=Files that matched an entry but were not used as evidence."`
}

// SkippedFile is a file that was not used as evidence, and why.
type SkippedFile struct {
	File   string `json:"file" jsonschema:"required"`
	Reason string `json:"reason" jsonschema:"required"`
}

// Candidate is the evidence for one capability.
type Candidate struct {
	Capability            string      `json:"capability" jsonschema:"required"`
	Score                 int         `json:"score" jsonschema:"required,description=Identity score (overlap with the id and tags and tool names)."`
	OperationScore        int         `json:"operation_score" jsonschema:"required,description=1 when the capability performs one of the task's operations (build test lint …) or the task names none."`
	IdentityScore         int         `json:"identity_score" jsonschema:"required"`
	DiscriminatingScore   int         `json:"discriminating_score" jsonschema:"required,description=Identity overlap without generic operation words."`
	ProjectScore          int         `json:"project_score" jsonschema:"required,description=1 when the project's files show this capability and the task matches it; see docs/tools/workflow_plan.md."`
	DescriptionScore      int         `json:"description_score" jsonschema:"required,description=Overlap with the description's content words; it only separates candidates that tie on everything else."`
	IdentityMatches       []string    `json:"identity_matches" jsonschema:"required"`
	DiscriminatingMatches []string    `json:"discriminating_matches" jsonschema:"required"`
	DescriptionMatches    []string    `json:"description_matches" jsonschema:"required"`
	ProjectEvidence       []string    `json:"project_evidence" jsonschema:"required,description=This capability's project_files entries found in the project's root."`
	NamedTools            []string    `json:"named_tools" jsonschema:"required,description=Configured tools the task names."`
	Description           string      `json:"description" jsonschema:"required"`
	SafetyClass           tools.Class `json:"safety_class" jsonschema:"required,description=Base safety class from the catalog."`
	AvailableTool         *string     `json:"available_tool" jsonschema:"required,nullable,description=The tool that would run; null when none of the configured tools is installed."`
	ConfiguredTools       []string    `json:"configured_tools" jsonschema:"required"`
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
	Query  string `json:"query" jsonschema:"required,minLength=1,maxLength=160,description=What the task asks to install (as written)."`
	Source string `json:"source,omitempty" jsonschema:"enum=winget,enum=chocolatey,enum=scoop,description=The package manager the task names; absent means package_search's default."`
	// SearchArguments is the exact argument object of the first call, so a caller
	// passes it on unchanged.
	SearchArguments map[string]string `json:"search_arguments" jsonschema:"required,description=The arguments of the package_search call that starts the setup."`
}

// Phase is one step of the four-phase plan.
type Phase struct {
	Phase       string      `json:"phase" jsonschema:"required,enum=inspect,enum=route,enum=execute,enum=verify"`
	Entry       string      `json:"entry" jsonschema:"required"`
	Action      string      `json:"action" jsonschema:"required"`
	Exit        string      `json:"exit" jsonschema:"required"`
	SafetyClass tools.Class `json:"safety_class" jsonschema:"required"`
}

// Route is the routing outcome for one task.
type Route struct {
	SelectionStatus       string          `json:"selection_status" jsonschema:"enum=selected,enum=ambiguous,enum=matched_unavailable,enum=no_match,enum=package_setup"`
	MatchedCandidate      *Candidate      `json:"matched_candidate" jsonschema:"nullable"`
	SelectedCandidate     *Candidate      `json:"selected_candidate" jsonschema:"nullable"`
	RouteDiscriminator    *Discriminator  `json:"route_discriminator" jsonschema:"nullable"`
	PackageSetup          *Setup          `json:"package_setup" jsonschema:"nullable,description=Present with selection_status package_setup."`
	ProjectEvidence       ProjectEvidence `json:"project_evidence" jsonschema:"description=What the project's own files showed (never their content)."`
	CandidateCapabilities []Candidate     `json:"candidate_capabilities" jsonschema:"description=Every capability of the catalog with the best evidence first."`
	Phases                []Phase         `json:"phases" jsonschema:"description=Always four: inspect then route then execute then verify."`
}

// Plan routes one task over the catalog (docs/tools/workflow_plan.md).
func Plan(cat *catalog.Catalog, req Request) Route {
	words := tokenSet(withoutIdioms(req.Task + " " + req.Context))
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

	cands := make([]Candidate, 0, len(cat.IDs()))
	identities := map[string]map[string]bool{}
	for _, id := range cat.IDs() {
		cp, _ := cat.Get(id)
		identity := tokenSet(id + " " + strings.ReplaceAll(id, "-", " ") + " " + strings.Join(cp.Tags, " ") + " " + strings.Join(cp.ToolNames(), " "))
		identities[id] = identity
		im := intersect(words, identity)
		dm := []string{}
		for _, t := range im {
			if !inSet(stop, t) {
				dm = append(dm, t)
			}
		}
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
		}
		if req.Available != nil {
			if name, ok := req.Available(id); ok {
				c.AvailableTool = &name
			}
		}
		cands = append(cands, c)
	}
	score(cands, words, identities)
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
	r.Phases = phases(&r)
	return r
}

// score sets the operation and project scores, which depend on every candidate.
func score(cands []Candidate, words map[string]bool, identities map[string]map[string]bool) {
	// The task's operations that some capability performs; none means no operation
	// constrains the route.
	var ops []string
	for _, w := range OperationWords {
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
	for i := range cands {
		c := &cands[i]
		c.OperationScore = 1
		if len(ops) > 0 && !slices.ContainsFunc(ops, func(w string) bool { return identities[c.Capability][w] }) {
			c.OperationScore = 0
		}
		// Project files say which tool of an operation the project uses, never whether
		// to do something (identity must match), never against the task's own subject,
		// and never pick a capability that needs approval: that must be asked for.
		if len(c.ProjectEvidence) > 0 && c.IdentityScore > 0 && (!named || c.DiscriminatingScore > 0) &&
			(c.SafetyClass == tools.ReadOnly || c.SafetyClass == tools.Reversible) {
			c.ProjectScore = 1
		}
	}
}

func decide(r *Route, cat *catalog.Catalog, req Request, in intent) {
	cands := r.CandidateCapabilities
	if in.verb != "" && !slices.ContainsFunc(cands, func(c Candidate) bool { return slices.Contains(c.IdentityMatches, in.verb) }) {
		decideIntent(r, in)
		return
	}
	if len(cands) == 0 || cands[0].DiscriminatingScore == 0 && cands[0].ProjectScore == 0 {
		r.SelectionStatus = NoMatch
		r.RouteDiscriminator = noMatch(cands, cat, req)
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
		cp, _ := cat.Get(c.Capability)
		if len(cp.ProjectFiles) > 0 && !slices.Contains(markers, cp.ProjectFiles[0]) {
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
