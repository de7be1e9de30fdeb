package runtime

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/tools"
)

// auditFacts derives what an audit record may say about a call beyond its outcome
// (docs/audit.md, "Subject and refusal"): the capability or package it acted on and,
// for a refusal, the argument and rule or the class. Everything comes from closed
// vocabularies — the catalog's ids, an id the package manager printed, the tool's own
// argument names, the rule words — so no free-form argument or message text reaches
// the log; the message is read here, in memory, and dropped.
//
// The status and message are the ones result kept when it encoded the output; the
// encoded result is decoded again only for a call with a package_id, for the output
// that may print it.
func (p *pipeline) auditFacts(rec *CallRecord) {
	if rec.ProtocolError || rec.Result == nil {
		return
	}
	if id, _ := rec.args["capability"].(string); id != "" && p.knownCapability(id, rec) {
		rec.Capability = id
	}
	if id, _ := rec.args["package_id"].(string); id != "" {
		var out struct {
			Stdout string `json:"stdout"`
			Stderr string `json:"stderr"`
		}
		if json.Unmarshal(rec.Result, &out) == nil && (printed(id, out.Stdout) || printed(id, out.Stderr)) {
			rec.PackageID = id
		}
	}
	switch rec.Status {
	case tools.StatusInvalidInput:
		rec.RefusalField, rec.RefusalRule = invalidInput(rec.errorText, p.argNames())
	case tools.StatusStalePlan:
		rec.RefusalField, rec.RefusalRule = stalePlan(rec.errorText), audit.RuleChanged
	case tools.StatusBlocked:
		if rec.RefusalRule == "" { // else the managed policy's rule (pipeline.call)
			rec.RefusalRule = string(rec.Class)
		}
	}
}

// argNames are the tool's top-level argument names.
func (p *pipeline) argNames() []string {
	var names []string
	for pr := p.schemas.In.Properties.Oldest(); pr != nil; pr = pr.Next() {
		names = append(names, pr.Key)
	}
	return names
}

// printed reports whether the package manager's output holds id as a whole word (the
// characters around it are not id characters), ignoring letter case: WinGet prints
// "Found Git [Git.Git]", Chocolatey "git v2.45.1", Scoop "Installing 'git'".
func printed(id, output string) bool {
	lower, want := strings.ToLower(output), strings.ToLower(id)
	for at := 0; at <= len(lower)-len(want); {
		i := strings.Index(lower[at:], want)
		if i < 0 {
			return false
		}
		i += at
		end := i + len(want)
		if (i == 0 || !idByte(lower[i-1])) && (end == len(lower) || !idByte(lower[end])) {
			return true
		}
		at = i + 1
	}
	return false
}

func idByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("._+-", c) >= 0
}

// ruleWords map the wording of an invalid_input message to its rule, first match wins
// (a phrase without a leading space must start the message).
// The messages come from the schema validator (schema/validate.go), the host's binding
// (host.Contained) and the tools' own checks; TestRefusalCategories holds each kind to
// its rule.
var ruleWords = []struct{ phrase, rule string }{
	{" must stay inside ", audit.RuleOutsideProject},
	{"missing required ", audit.RuleRequired},
	{" is required", audit.RuleRequired},
	{" are required", audit.RuleRequired},
	{"unknown ", audit.RuleUnknownArgument},
	{" must be one of ", audit.RuleEnum},
	{" must match the pattern", audit.RulePattern},
	{" must not be blank", audit.RuleLength},
	{" must not be empty", audit.RuleLength},
	{" characters", audit.RuleLength},
	{" must be >= ", audit.RuleRange},
	{" must be <= ", audit.RuleRange},
	{" must have at ", audit.RuleItems},
	{" must be a", audit.RuleType},
}

// invalidInput is the argument and rule of an invalid_input message. The argument is
// the message's first word (or, for missing ones, the first listed) when it names one
// of the tool's arguments, else "": an unknown argument's name is the caller's text.
func invalidInput(msg string, args []string) (field, rule string) {
	rule = audit.RuleOther
	for _, w := range ruleWords {
		// A phrase that starts a message is matched there only: a message that quotes
		// the caller's values later on cannot match it by accident.
		if strings.HasPrefix(w.phrase, " ") && strings.Contains(msg, w.phrase) || strings.HasPrefix(msg, w.phrase) {
			rule = w.rule
			break
		}
	}
	if rule == audit.RuleUnknownArgument {
		return "", rule
	}
	first := msg
	if _, after, ok := strings.Cut(msg, "missing required "); ok {
		_, first, _ = strings.Cut(after, ": ")
	}
	first, _, _ = strings.Cut(first, " ")
	first = strings.TrimRight(first, ":,")
	if i := strings.IndexAny(first, "[."); i > 0 {
		first = first[:i] // payload_paths[2], an object's member
	}
	if slices.Contains(args, first) {
		field = first
	}
	return field, rule
}

// stalePlan is the echoed argument a stale_plan message says no longer holds.
func stalePlan(msg string) string {
	switch {
	case strings.HasPrefix(msg, "Resolved executable no longer matches"):
		return "expected_executable"
	case strings.HasPrefix(msg, "Executable identity no longer matches"):
		return "expected_executable_identity_sha256"
	case strings.Contains(msg, "definition changed"):
		return "expected_definition_sha256"
	}
	return ""
}

// knownCapability reports whether a call's capability id is one the log may name: an
// entry of the catalog in force, or a project task the project declares (issue 23: its
// tasks appear wherever capabilities do). capability_run's result carries task_file
// exactly when it read the task from the project's files, so an id with one is a
// declared task's, not text the caller made up (docs/audit.md, "Subject and refusal").
// Only a project task's id costs a decode of the (small) result.
func (p *pipeline) knownCapability(id string, rec *CallRecord) bool {
	if !tools.IsProjectTaskID(id) {
		return p.opts.InCatalog != nil && p.opts.InCatalog(id)
	}
	var out struct {
		TaskFile string `json:"task_file"`
	}
	return json.Unmarshal(rec.Result, &out) == nil && out.TaskFile != ""
}
