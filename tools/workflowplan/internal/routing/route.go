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
)

// Unresolved is the execute phase's safety label when no capability is selected.
const Unresolved tools.Class = "unresolved"

// GenericWords name operations rather than a subject: they count as identity evidence
// but never discriminate one capability from another.
var GenericWords = []string{"build", "check", "create", "current", "inspect", "lint", "package",
	"plan", "project", "route", "run", "setup", "test", "tool", "workflow"}

// Availability reports the tool a capability would run with (its first configured tool
// whose executable resolves), or ok=false when none does.
type Availability func(id string) (toolName string, ok bool)

// Candidate is the evidence for one capability.
type Candidate struct {
	Capability            string      `json:"capability" jsonschema:"required"`
	Score                 int         `json:"score" jsonschema:"required,description=Identity score (id and tag overlap)."`
	IdentityScore         int         `json:"identity_score" jsonschema:"required"`
	DiscriminatingScore   int         `json:"discriminating_score" jsonschema:"required,description=Identity overlap without generic operation words; only this selects."`
	DescriptionScore      int         `json:"description_score" jsonschema:"required"`
	IdentityMatches       []string    `json:"identity_matches" jsonschema:"required"`
	DiscriminatingMatches []string    `json:"discriminating_matches" jsonschema:"required"`
	DescriptionMatches    []string    `json:"description_matches" jsonschema:"required"`
	Description           string      `json:"description" jsonschema:"required"`
	SafetyClass           tools.Class `json:"safety_class" jsonschema:"required,description=Base safety class from the catalog."`
	AvailableTool         *string     `json:"available_tool" jsonschema:"required,nullable,description=The tool that would run; null when none of the configured tools is installed."`
	ConfiguredTools       []string    `json:"configured_tools" jsonschema:"required"`
}

func (c *Candidate) rank() [3]int {
	return [3]int{c.DiscriminatingScore, c.IdentityScore, c.DescriptionScore}
}

// Discriminator explains an unresolved route. Which fields appear depends on the
// outcome: ambiguous carries rank, candidates and availability; matched_unavailable
// carries rank, candidates and configured_tools; no_match carries candidates only.
type Discriminator struct {
	Rank            []int               `json:"rank,omitempty" jsonschema:"description=Scores of the top rank: discriminating then identity then description."`
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
	SelectionStatus       string         `json:"selection_status" jsonschema:"enum=selected,enum=ambiguous,enum=matched_unavailable,enum=no_match"`
	MatchedCandidate      *Candidate     `json:"matched_candidate" jsonschema:"nullable"`
	SelectedCandidate     *Candidate     `json:"selected_candidate" jsonschema:"nullable"`
	RouteDiscriminator    *Discriminator `json:"route_discriminator" jsonschema:"nullable"`
	CandidateCapabilities []Candidate    `json:"candidate_capabilities" jsonschema:"description=Every capability of the catalog with the best evidence first."`
	Phases                []Phase        `json:"phases" jsonschema:"description=Always four: inspect then route then execute then verify."`
}

// Plan routes task (with optional context) over the catalog.
func Plan(cat *catalog.Catalog, task, context string, avail Availability) Route {
	taskTokens := tokenSet(task + " " + context)
	stop := map[string]bool{}
	for _, w := range GenericWords {
		stop[w] = true
	}
	cands := make([]Candidate, 0, len(cat.IDs()))
	for _, id := range cat.IDs() {
		cp, _ := cat.Get(id)
		identity := tokenSet(id + " " + strings.ReplaceAll(id, "-", " ") + " " + strings.Join(cp.Tags, " "))
		im := intersect(taskTokens, identity)
		dm := []string{}
		for _, t := range im {
			if !stop[t] {
				dm = append(dm, t)
			}
		}
		desc := intersect(taskTokens, tokenSet(cp.Description))
		c := Candidate{
			Capability: id, Score: len(im), IdentityScore: len(im), DiscriminatingScore: len(dm),
			DescriptionScore: len(desc), IdentityMatches: im, DiscriminatingMatches: dm, DescriptionMatches: desc,
			Description: cp.Description, SafetyClass: cp.Safety, ConfiguredTools: cp.ToolNames(),
		}
		if avail != nil {
			if name, ok := avail(id); ok {
				c.AvailableTool = &name
			}
		}
		cands = append(cands, c)
	}
	slices.SortStableFunc(cands, func(a, b Candidate) int {
		return cmp.Or(
			cmp.Compare(b.DiscriminatingScore, a.DiscriminatingScore),
			cmp.Compare(b.IdentityScore, a.IdentityScore),
			cmp.Compare(b.DescriptionScore, a.DescriptionScore),
			strings.Compare(a.Capability, b.Capability))
	})
	r := Route{CandidateCapabilities: cands}
	decide(&r)
	r.Phases = phases(&r)
	return r
}

func decide(r *Route) {
	cands := r.CandidateCapabilities
	if len(cands) == 0 || cands[0].DiscriminatingScore == 0 {
		r.SelectionStatus = NoMatch
		var ids []string
		identity, described := false, false
		for _, c := range cands {
			if c.IdentityScore > 0 || c.DescriptionScore > 0 {
				if len(ids) < 5 {
					ids = append(ids, c.Capability)
				}
				identity = identity || c.IdentityScore > 0
				described = described || c.DescriptionScore > 0
			}
		}
		if len(ids) > 0 {
			r.RouteDiscriminator = &Discriminator{Candidates: ids, Reason: noMatchReason(identity, described)}
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
	rank := []int{top[0], top[1], top[2]}
	if len(tied) > 1 {
		r.SelectionStatus = Ambiguous
		d := &Discriminator{Rank: rank, Availability: map[string]*string{},
			Reason: "These candidates are tied on identical semantic evidence; tool availability does not break the tie. Ask which one is meant, or add a discriminating word (language, ecosystem or tool)."}
		for _, c := range tied {
			d.Candidates = append(d.Candidates, c.Capability)
			d.Availability[c.Capability] = c.AvailableTool
		}
		r.RouteDiscriminator = d
		return
	}
	m := cands[0]
	r.MatchedCandidate = &m
	if m.AvailableTool != nil {
		r.SelectionStatus = Selected
		s := m
		r.SelectedCandidate = &s
		return
	}
	r.SelectionStatus = MatchedUnavailable
	r.RouteDiscriminator = &Discriminator{Rank: rank, Candidates: []string{m.Capability},
		ConfiguredTools: map[string][]string{m.Capability: m.ConfiguredTools},
		Reason:          "The uniquely strongest match has none of its configured tools installed; a weaker candidate is not used as a fallback."}
}

func noMatchReason(identity, described bool) string {
	switch {
	case identity && described:
		return "Only generic identity overlap (operation words such as run, test, build) and description-only similarity were seen; neither selects a capability. Add a discriminating word (language, ecosystem or tool)."
	case identity:
		return "Only generic identity overlap (operation words such as run, test, build) was seen; it does not select a capability. Add a discriminating word (language, ecosystem or tool)."
	default:
		return "Only description-only similarity was seen; descriptions never select a capability by themselves. Add a discriminating word (language, ecosystem or tool)."
	}
}
