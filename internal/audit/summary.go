package audit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Summary is the audit summary of a list of records, counted in calls (docs/audit.md,
// "The Stop summary"). JSON names are the contract's keys; total_events is the number
// of calls.
type Summary struct {
	TotalEvents            int            `json:"total_events"`
	EventTypes             map[string]int `json:"event_types"`
	Tools                  map[string]int `json:"tools"`
	ExecutionSucceeded     int            `json:"execution_succeeded"`
	ExecutionFailed        int            `json:"execution_failed"`
	ExecutionUnknown       int            `json:"execution_unknown"`
	NotExecuted            int            `json:"not_executed"`
	NotApplicable          int            `json:"not_applicable"`
	ExternalProcessStarted int            `json:"external_process_started"`
	PermissionDenials      int            `json:"permission_denials"`
	LastFailureTool        string         `json:"last_failure_tool,omitempty"`
	LastDeniedTool         string         `json:"last_denied_tool,omitempty"`
}

// IsFailure is the failure rule shared by the failures filter and the summary: outcome
// failed, or a legacy record without execution_outcome whose success is false.
// unknown is never a failure.
func IsFailure(ev map[string]any) bool {
	if o, has := ev["execution_outcome"]; has {
		return o == Failed
	}
	return ev["success"] == false
}

// refusalStatuses are the result statuses of a call that was refused rather than run:
// the input, the catalog or the reviewed identity did not allow it.
var refusalStatuses = map[string]bool{
	"invalid_input": true, "blocked": true, "stale_plan": true,
	"unknown_capability": true, "configuration_error": true,
}

// IsRefusal reports a record of a refused call: a hook that denied it, or a result
// whose status says it was refused (docs/audit.md, "Failures and refusals"). Together
// with IsFailure it is logs_query's failures filter; the summary counts failures and
// denials separately and does not use it.
func IsRefusal(ev map[string]any) bool {
	if ev["permission_denied"] == true || ev["permission_decision"] == DecisionDeny {
		return true
	}
	s, _ := ev["result_status"].(string)
	return refusalStatuses[s]
}

// Summarize counts calls, not records: with the hooks installed one call leaves up to
// three records (the gate's PreToolUse, the server's tools/call, the trace hook's
// PostToolUse), and each call is counted once (groupCalls). A call's event type, tool
// and outcome are those of its representative record; outcome counters count only the
// five legal values; external_process_started counts calls with execution_started ===
// true whatever the outcome; a call any of whose records is a denial counts once as a
// denial.
func Summarize(events []map[string]any) Summary {
	facts := make([]fact, len(events))
	for i, ev := range events {
		facts[i] = factOf(ev)
	}
	return summarize(facts)
}

// fact is what the summary reads of one record: its string members ("" when absent or
// not a string) and the four tests it makes of the others.
type fact struct {
	event, lifecycleEvent, tool, outcome, session, useID string
	// hasOutcome: execution_outcome is present (whatever its value); successFalse:
	// success is the boolean false; started, denied: execution_started and
	// permission_denied are the boolean true.
	hasOutcome, successFalse, started, denied bool
}

// factOf reads a decoded record.
func factOf(ev map[string]any) fact {
	str := func(k string) string { s, _ := ev[k].(string); return s }
	_, hasOutcome := ev["execution_outcome"]
	return fact{
		event: str("event"), lifecycleEvent: str("lifecycle_event"), tool: str("tool_name"),
		outcome: str("execution_outcome"), session: str("session_id"), useID: str("tool_use_id"),
		hasOutcome: hasOutcome, successFalse: ev["success"] == false,
		started: ev["execution_started"] == true, denied: ev["permission_denied"] == true,
	}
}

// failed is IsFailure of the record.
func (f fact) failed() bool {
	if f.hasOutcome {
		return f.outcome == Failed
	}
	return f.successFalse
}

func summarize(facts []fact) Summary {
	s := Summary{EventTypes: map[string]int{}, Tools: map[string]int{}}
	for _, c := range groupCalls(facts) {
		f := facts[c.rep]
		s.TotalEvents++
		name := f.event
		if name == "" {
			name = "unknown"
		}
		s.EventTypes[name]++
		if f.tool != "" {
			s.Tools[f.tool]++
		}
		switch f.outcome {
		case Succeeded:
			s.ExecutionSucceeded++
		case Unknown:
			s.ExecutionUnknown++
		case NotExecuted:
			s.NotExecuted++
		case NotApplicable:
			s.NotApplicable++
		}
		if f.failed() {
			s.ExecutionFailed++
			s.LastFailureTool = f.tool
		}
		if f.started {
			s.ExternalProcessStarted++
		}
		if c.denied {
			s.PermissionDenials++
			s.LastDeniedTool = f.tool
		}
	}
	return s
}

// call is one call as the summary counts it: the index of its representative record
// and whether any of its records is a permission denial.
type call struct {
	rep    int
	denied bool
}

// Kinds of record, by lifecycle event.
const (
	kindOther    = iota // legacy or unknown events: each record a call of its own
	kindDecision        // PreToolUse, PermissionRequest: a permission decision
	kindHook            // PostToolUse, PostToolUseFailure: the trace hook's completion
	kindServer          // tools/call: the server's completion
)

func recordKind(f fact) int {
	name := f.lifecycleEvent
	if name == "" {
		name = f.event
	}
	switch name {
	case EventPreToolUse, EventPermissionRequest:
		return kindDecision
	case EventPostToolUse, EventPostToolUseFailure:
		return kindHook
	case EventToolCall:
		return kindServer
	}
	return kindOther
}

// callKey names a call across records: its session and the host's tool_use_id.
type callKey struct{ session, useID string }

func keyOf(f fact) callKey { return callKey{f.session, f.useID} }

// groupCalls recognises the records of one call (docs/audit.md, "The Stop summary"):
//
//   - Every completion record is one call. Completions are the trace hook's
//     (PostToolUse, PostToolUseFailure) and the server's (tools/call).
//   - Where both kinds exist they describe the same calls, and the hook's are counted:
//     they carry the host's tool_use_id, which pairs them with the gate's decisions. A
//     server record is left out when it has a tool_use_id that a hook completion of its
//     session has, or, without one, when its session has hook completions at all; a
//     server record without a session (the server could not learn it) is left out when
//     any hook completion is summarised.
//   - A decision record (PreToolUse, PermissionRequest) with a tool_use_id that a
//     completion of its session has belongs to that call: it adds the denial, if it is
//     one, and nothing else. Decisions that share a tool_use_id and no completion are one
//     call (a denied call, or one that never ran); a decision without a tool_use_id is a
//     call of its own (the host's own tools, such as Bash, only ever have a decision).
//   - Any other record is a call of its own.
//
// Two completions with the same tool_use_id stay two calls: a host never reuses one,
// and counting a record too many is better than hiding a call.
// The calls are returned in the order of their representative records: the
// completion, or a decision-only call's last decision.
func groupCalls(events []fact) []call {
	// The maps are sized up front: a session that filled the log has thousands of
	// calls, and growing a map copies it (memory a hook process touches once and
	// never collects).
	hooks, withID := 0, 0
	for _, ev := range events {
		if ev.useID != "" {
			withID++
			if recordKind(ev) == kindHook {
				hooks++
			}
		}
	}
	hookSessions := map[string]bool{}
	hookIDs := make(map[callKey]bool, hooks)
	anyHook := false
	for _, ev := range events {
		if recordKind(ev) == kindHook {
			k := keyOf(ev)
			anyHook = true
			hookSessions[k.session] = true
			if k.useID != "" {
				hookIDs[k] = true
			}
		}
	}
	shadowed := func(ev fact) bool {
		k := keyOf(ev)
		if k.useID != "" {
			return hookIDs[k]
		}
		return hookSessions[k.session] || (k.session == "" && anyHook)
	}
	calls := make([]call, 0, len(events))
	completion := make(map[callKey]int, withID) // first completion call of each key
	for i, ev := range events {
		switch recordKind(ev) {
		case kindHook:
		case kindServer:
			if shadowed(ev) {
				continue
			}
		default:
			continue
		}
		if k := keyOf(ev); k.useID != "" {
			if _, seen := completion[k]; !seen {
				completion[k] = len(calls)
			}
		}
		calls = append(calls, call{rep: i})
	}
	decisionOnly := map[callKey]int{}
	for i, ev := range events {
		switch recordKind(ev) {
		case kindOther:
			calls = append(calls, call{rep: i})
			continue
		case kindDecision:
		default:
			continue
		}
		denied := ev.denied
		k := keyOf(ev)
		if k.useID != "" {
			if c, ok := completion[k]; ok {
				calls[c].denied = calls[c].denied || denied
				continue
			}
			if c, ok := decisionOnly[k]; ok {
				calls[c].rep = i
				calls[c].denied = calls[c].denied || denied
				continue
			}
			decisionOnly[k] = len(calls)
		}
		calls = append(calls, call{rep: i, denied: denied})
	}
	slices.SortStableFunc(calls, func(a, b call) int { return cmp.Compare(a.rep, b.rep) })
	return calls
}

// CodexMessage is the Codex Stop hook's systemMessage text (docs/audit.md, "The Stop summary").
func (s Summary) CodexMessage() string {
	return fmt.Sprintf("Windows Dev Agent session audit: events=%d, execution_succeeded=%d, execution_failed=%d, execution_unknown=%d, not_executed=%d, external_process_started=%d, permission_denials=%d.",
		s.TotalEvents, s.ExecutionSucceeded, s.ExecutionFailed, s.ExecutionUnknown, s.NotExecuted, s.ExternalProcessStarted, s.PermissionDenials)
}

// Text is the Claude Stop report (docs/audit.md): "Session Audit" when scoped to one
// session, "Persistent Audit History" otherwise.
func (s Summary) Text(scoped bool) string {
	var b strings.Builder
	heading, where := "Persistent Audit History", "in the retained history"
	if scoped {
		heading, where = "Session Audit", "in this session"
	}
	fmt.Fprintf(&b, "Windows Dev Agent %s\n", heading)
	if s.TotalEvents == 0 {
		fmt.Fprintf(&b, "no Windows Dev Agent events recorded %s\n", where)
		return b.String()
	}
	fmt.Fprintf(&b, "Events: %d\n", s.TotalEvents)
	fmt.Fprintf(&b, "succeeded: %d\nfailed: %d\nunknown: %d\nnot-executed: %d\n",
		s.ExecutionSucceeded, s.ExecutionFailed, s.ExecutionUnknown, s.NotExecuted)
	fmt.Fprintf(&b, "external processes started: %d\npermission denials: %d\n",
		s.ExternalProcessStarted, s.PermissionDenials)
	tools := make([]string, 0, len(s.Tools))
	for t := range s.Tools {
		tools = append(tools, t)
	}
	slices.Sort(tools)
	for _, t := range tools {
		fmt.Fprintf(&b, "  %s: %d\n", t, s.Tools[t])
	}
	if s.LastFailureTool != "" {
		fmt.Fprintf(&b, "last failed execution: %s\n", s.LastFailureTool)
	}
	if s.LastDeniedTool != "" {
		fmt.Fprintf(&b, "last denied request: %s\n", s.LastDeniedTool)
	}
	return b.String()
}
