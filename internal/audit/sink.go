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
	Duration  time.Duration
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
}

// FromCall builds the audit record of a finished server call. A JSON-RPC error has no
// result, so its outcome follows rule 2 (unknown when a process may have started).
func FromCall(c Call) Record {
	var result map[string]any
	if !c.ProtocolError && len(c.Result) > 0 {
		_ = json.Unmarshal(c.Result, &result) // an undecodable result counts as none
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
	}
}
