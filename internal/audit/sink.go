package audit

import (
	"encoding/json"
	"time"
)

// Call is what the MCP core knows of one finished call: derived facts only, never the
// arguments.
type Call struct {
	Tool      string
	Class     string
	Host      string
	SessionID string
	Duration  time.Duration
	// Execute: the arguments asked for execution (execute exactly true) of a tool
	// that plans first (PlanFirst).
	Execute, PlanFirst bool
	// MayStartProcess is the tool's own declaration applied to the arguments.
	MayStartProcess bool
	// Result is the structured result as JSON; nil when the call ended in a protocol
	// error (ProtocolError).
	Result        json.RawMessage
	ProtocolError bool
}

// FromCall builds the audit record of a finished server call. What the outcome rules
// need to know about the arguments comes from the tool's declarations (plan-first,
// may start a process), never from a list of tool names here. A JSON-RPC error has no
// result, so its outcome follows rule 2 (unknown when a process may have started).
func FromCall(c Call) Record {
	input := map[string]any{}
	if c.PlanFirst {
		input["execute"] = c.Execute
	}
	var result map[string]any
	if !c.ProtocolError && len(c.Result) > 0 {
		_ = json.Unmarshal(c.Result, &result) // an undecodable result counts as none
	}
	in := OutcomeInput{Event: EventToolCall, Tool: c.Tool, Input: input, Result: result}
	ok := !c.ProtocolError
	ms := float64(c.Duration.Microseconds()) / 1000
	return Record{
		LifecycleEvent:   EventToolCall,
		LifecycleSuccess: &ok,
		ExecutionStarted: ExecutionStarted(in),
		ExecutionOutcome: OutcomeWith(in, c.MayStartProcess),
		ResultStatus:     ResultStatus(in),
		SessionID:        c.SessionID,
		ToolName:         c.Tool,
		DurationMS:       &ms,
		ErrorPresent:     new(c.ProtocolError || Truthy(result["error"])),
		SafetyClass:      c.Class,
		Host:             c.Host,
	}
}
