package audit

import (
	"encoding/json"
	"time"
)

// Call is what the MCP core knows of one finished call: derived facts only, never the
// arguments. The facts about the arguments come from the tool's own declarations
// (plan-first, when it may start a process, its status vocabulary), never from a list
// of tool names here.
type Call struct {
	Tool      string
	Class     string
	Host      string
	SessionID string
	// Caller is the remote client's token name ("" over stdio); docs/audit.md.
	Caller   string
	Duration time.Duration
	// Execute: the arguments asked for execution (execute exactly true) of a tool
	// that plans first (PlanFirst).
	Execute, PlanFirst bool
	// MayStartProcess is the tool's declaration applied to the arguments.
	MayStartProcess bool
	// Statuses is the tool's status vocabulary; nil means DefaultVocabulary.
	Statuses []string
	// Result is the structured result as JSON; nil when the call ended in a protocol
	// error (ProtocolError).
	Result        json.RawMessage
	ProtocolError bool
	// Capability and PackageID are what the call acted on, set only when the caller
	// established that the id is an entry of the catalog in force, or printed by the
	// package manager for this call; RefusalField and RefusalRule say why a refused call
	// was refused (docs/audit.md, "Subject and refusal"). The record keeps each only in
	// its vocabulary's shape.
	Capability, PackageID     string
	RefusalField, RefusalRule string
}

// FromCall builds the audit record of a finished server call. A JSON-RPC error has no
// result, so its outcome follows rule 2 (unknown when a process may have started).
func FromCall(c Call) Record {
	var result map[string]any
	if !c.ProtocolError && len(c.Result) > 0 {
		result = outcomeFields(c.Result) // an undecodable result counts as none
	}
	in := OutcomeInput{Event: EventToolCall, HasExecute: c.PlanFirst, Executing: c.PlanFirst && c.Execute,
		MayStartProcess: c.MayStartProcess, Result: result}
	if c.Statuses != nil {
		// A vocabulary that is not all status words is ignored for the default one:
		// the record never keeps a word outside some vocabulary.
		if v, err := NewVocabulary(c.Statuses...); err == nil {
			in.Vocabulary = v
		}
	}
	ok := !c.ProtocolError
	ms := float64(c.Duration.Microseconds()) / 1000
	return Record{
		LifecycleEvent:   EventToolCall,
		LifecycleSuccess: &ok,
		ExecutionStarted: ExecutionStarted(in),
		ExecutionOutcome: Outcome(in),
		ResultStatus:     ResultStatus(in),
		SessionID:        c.SessionID,
		ToolName:         c.Tool,
		DurationMS:       &ms,
		ErrorPresent:     new(c.ProtocolError || Truthy(result["error"])),
		SafetyClass:      c.Class,
		Host:             c.Host,
		Caller:           c.Caller,
		Capability:       c.Capability,
		PackageID:        c.PackageID,
		RefusalField:     c.RefusalField,
		RefusalRule:      c.RefusalRule,
	}
}

// outcomeKeys are the top-level result members the outcome rules read (outcome.go).
var outcomeKeys = []string{"status", "execution_started", "lifecycle_error", "timed_out", "succeeded", "returncode", "error"}

// outcomeFields decodes a result object's members that the outcome rules read, and
// only those: a full decode into maps was a third of a workflow_plan call's server
// time, for a record that keeps a handful of words. Its answer is what a full decode
// gives for those keys (TestOutcomeFieldsMatchFullDecode): nil for anything but a
// valid JSON object, exact key matching, the last of duplicate keys.
func outcomeFields(b []byte) map[string]any {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		return nil
	}
	out := make(map[string]any, len(outcomeKeys))
	for _, k := range outcomeKeys {
		v, ok := raw[k]
		if !ok {
			continue
		}
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return nil
		}
		out[k] = x
	}
	return out
}
