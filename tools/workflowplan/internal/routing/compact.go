package routing

import (
	"encoding/json"

	"github.com/windows-dev-agent/wda/tools"
)

// The two views of a result (docs/tools/workflow_plan.md, "Output"). Every byte a tool
// returns stays in the model's context (issue 24): by default a route says what the
// next step needs, once; detail "full" gives the whole breakdown. Both views conform
// to the one output schema, which the Go types describe: a field the compact view
// leaves out is optional there.
type view uint8

const (
	// viewFull: every field, zero scores and empty lists included.
	viewFull view = iota
	// viewEvidence: a candidate of candidate_capabilities in the compact view, with
	// only the evidence that decided its rank.
	viewEvidence
	// viewMatched: matched_candidate in the compact view: what it is and what would
	// run it; its evidence is its entry in candidate_capabilities.
	viewMatched
)

// SetCompact makes r marshal as the compact view.
func (r *Route) SetCompact() {
	for i := range r.CandidateCapabilities {
		r.CandidateCapabilities[i].view = viewEvidence
	}
	if r.MatchedCandidate != nil {
		r.MatchedCandidate.view = viewMatched
	}
	r.ProjectEvidence.compact = true
	for i := range r.Phases {
		r.Phases[i].compact = true
	}
}

// Candidates is candidate_capabilities: in the compact view, only the candidates that
// carry evidence for the task (see carriesEvidence).
type Candidates []Candidate

// carriesEvidence: the candidate performs the task's operation (or the task names
// none) and has a task word in its identity or description, or project evidence
// that counted. A candidate of another operation carries nothing for the route; the
// no_match reason names such candidates when they matched the subject.
func (c *Candidate) carriesEvidence() bool {
	return c.OperationScore > 0 && (c.IdentityScore > 0 || c.ProjectScore > 0 || c.DescriptionScore > 0)
}

// MarshalJSON writes the candidates of the view their elements are in.
func (cs Candidates) MarshalJSON() ([]byte, error) {
	out := make([]Candidate, 0, len(cs))
	for _, c := range cs {
		if c.view == viewFull || c.carriesEvidence() {
			out = append(out, c)
		}
	}
	return json.Marshal([]Candidate(out))
}

// fullCandidate is the full view: today's breakdown, every field always present.
type fullCandidate struct {
	Capability            string      `json:"capability"`
	Score                 int         `json:"score"`
	OperationScore        int         `json:"operation_score"`
	IdentityScore         int         `json:"identity_score"`
	DiscriminatingScore   int         `json:"discriminating_score"`
	ProjectScore          int         `json:"project_score"`
	DescriptionScore      int         `json:"description_score"`
	IdentityMatches       []string    `json:"identity_matches"`
	DiscriminatingMatches []string    `json:"discriminating_matches"`
	DescriptionMatches    []string    `json:"description_matches"`
	ProjectEvidence       []string    `json:"project_evidence"`
	NamedTools            []string    `json:"named_tools"`
	Description           string      `json:"description"`
	SafetyClass           tools.Class `json:"safety_class"`
	AvailableTool         *string     `json:"available_tool"`
	ConfiguredTools       []string    `json:"configured_tools"`
}

// evidenceCandidate is a compact candidate: the scores are the lengths of the match
// lists, so only the lists are given, and the project score, which they do not say.
type evidenceCandidate struct {
	Capability            string   `json:"capability"`
	ProjectScore          int      `json:"project_score,omitempty"`
	IdentityMatches       []string `json:"identity_matches,omitempty"`
	DiscriminatingMatches []string `json:"discriminating_matches,omitempty"`
	DescriptionMatches    []string `json:"description_matches,omitempty"`
	ProjectEvidence       []string `json:"project_evidence,omitempty"`
}

// matchedCandidate is a compact matched_candidate.
type matchedCandidate struct {
	Capability    string      `json:"capability"`
	Description   string      `json:"description"`
	SafetyClass   tools.Class `json:"safety_class"`
	AvailableTool *string     `json:"available_tool"`
}

// MarshalJSON writes the candidate in its view.
func (c Candidate) MarshalJSON() ([]byte, error) {
	switch c.view {
	case viewEvidence:
		e := evidenceCandidate{Capability: c.Capability, ProjectScore: c.ProjectScore, IdentityMatches: c.IdentityMatches,
			DiscriminatingMatches: c.DiscriminatingMatches, DescriptionMatches: c.DescriptionMatches}
		if c.ProjectScore > 0 {
			e.ProjectEvidence = c.ProjectEvidence
		}
		return json.Marshal(e)
	case viewMatched:
		return json.Marshal(matchedCandidate{Capability: c.Capability, Description: c.Description, SafetyClass: c.SafetyClass,
			AvailableTool: c.AvailableTool})
	}
	f := fullCandidate{Capability: c.Capability, Score: c.Score, OperationScore: c.OperationScore, IdentityScore: c.IdentityScore,
		DiscriminatingScore: c.DiscriminatingScore, ProjectScore: c.ProjectScore, DescriptionScore: c.DescriptionScore,
		IdentityMatches: orEmpty(c.IdentityMatches), DiscriminatingMatches: orEmpty(c.DiscriminatingMatches),
		DescriptionMatches: orEmpty(c.DescriptionMatches), ProjectEvidence: orEmpty(c.ProjectEvidence),
		NamedTools: orEmpty(c.NamedTools), Description: c.Description, SafetyClass: c.SafetyClass,
		AvailableTool: c.AvailableTool, ConfiguredTools: orEmpty(c.ConfiguredTools)}
	return json.Marshal(f)
}

// MarshalJSON writes the project evidence: the full view always lists found, files,
// read and skipped; the compact one only what is there, without files and read
// (found names the entries, which is what decided).
func (p ProjectEvidence) MarshalJSON() ([]byte, error) {
	if p.compact {
		type compact struct {
			Inspected    bool          `json:"inspected"`
			Found        []string      `json:"found,omitempty"`
			Skipped      []SkippedFile `json:"skipped,omitempty"`
			TaskWarnings *TaskWarnings `json:"task_warnings,omitempty"`
		}
		return json.Marshal(compact{p.Inspected, p.Found, p.Skipped, p.TaskWarnings})
	}
	type full struct {
		Inspected    bool          `json:"inspected"`
		Found        []string      `json:"found"`
		Files        []string      `json:"files"`
		Read         []string      `json:"read"`
		Skipped      []SkippedFile `json:"skipped"`
		TaskWarnings *TaskWarnings `json:"task_warnings,omitempty"`
	}
	skipped := p.Skipped
	if skipped == nil {
		skipped = []SkippedFile{}
	}
	return json.Marshal(full{p.Inspected, orEmpty(p.Found), orEmpty(p.Files), orEmpty(p.Read), skipped, p.TaskWarnings})
}

// MarshalJSON writes the phase: the compact view is its brief action and class.
func (p Phase) MarshalJSON() ([]byte, error) {
	if p.compact {
		type compact struct {
			Phase       string      `json:"phase"`
			Action      string      `json:"action"`
			SafetyClass tools.Class `json:"safety_class"`
		}
		return json.Marshal(compact{p.Phase, p.Brief, p.SafetyClass})
	}
	type full struct {
		Phase       string      `json:"phase"`
		Entry       string      `json:"entry"`
		Action      string      `json:"action"`
		Exit        string      `json:"exit"`
		SafetyClass tools.Class `json:"safety_class"`
	}
	return json.Marshal(full{p.Phase, p.Entry, p.Action, p.Exit, p.SafetyClass})
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
