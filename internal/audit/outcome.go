package audit

import (
	"encoding/json"
	"math"
	"strings"
)

// OutcomeInput is everything the outcome derivation may look at: facts about one
// finished call, never a tool name (docs/audit.md, "Outcome"). It is built in memory from
// a hook payload (from the tool's declarations in the hooks' table) or a finished server call (FromCall) and is never stored.
type OutcomeInput struct {
	// Event is the lifecycle event (EventPostToolUse, EventPreToolUse, ...; the server
	// uses EventToolCall).
	Event string
	// HasExecute: the call's input has an execute key (whatever its value).
	HasExecute bool
	// Executing: the input's execute is exactly true.
	Executing bool
	// MayStartProcess: a call of this tool with this input may start an external
	// process (a declaration of the tool, not something the result shows).
	MayStartProcess bool
	// Result is the decoded tool result (see DecodeResult), nil when there is none.
	Result map[string]any
	// Vocabulary is the set of status words the tool may return; a result status outside
	// it is never recorded. nil means DefaultVocabulary.
	Vocabulary *Vocabulary
}

// notExecutedStatuses are refusals before any process could start (rule 8).
var notExecutedStatuses = map[string]bool{
	"planned": true, "blocked": true, "unavailable": true, "invalid_input": true,
	"stale_plan": true, "approval_required": true, "unknown_capability": true,
	"configuration_error": true,
}

// Outcome derives execution_outcome with the rules of docs/audit.md ("Outcome"), first
// match wins. Permission/control events (PreToolUse, PermissionRequest) are always
// not_applicable. It is pure: the same input always gives the same outcome. The status
// it compares is only ever matched against the words the rules name, so a status
// outside the vocabulary falls to rule 9.
func Outcome(in OutcomeInput) string {
	if isPermissionEvent(in.Event) {
		return NotApplicable
	}
	// Rule 1: an explicit non-executing call is a plan.
	if in.HasExecute && !in.Executing {
		return NotExecuted
	}
	res := in.Result
	// Rule 2: no decodable result.
	if res == nil {
		if in.Executing || in.MayStartProcess {
			return Unknown
		}
		return NotApplicable
	}
	started := res["execution_started"] == true
	// Rule 3: an observation error after a start leaves the effect unknown.
	if started && Truthy(res["lifecycle_error"]) {
		return Unknown
	}
	// Rule 4: an executing call that timed out after starting.
	if in.Executing && started && res["timed_out"] == true {
		return Unknown
	}
	status, _ := res["status"].(string)
	switch {
	case status == "completed": // Rule 5
		switch res["succeeded"] {
		case true:
			return Succeeded
		case false:
			return Failed
		}
		if rc, ok := integer(res["returncode"]); ok {
			if rc == 0 {
				return Succeeded
			}
			return Failed
		}
		return Unknown
	case status == "failed": // Rule 6
		if res["execution_started"] == false {
			return NotExecuted
		}
		return Failed
	case status == "launched": // Rule 7: a launch is never a success.
		return Unknown
	case status == "cancelled": // Rule 7: a run stopped on the way may have changed something.
		return Unknown
	case notExecutedStatuses[status]: // Rule 8
		return NotExecuted
	}
	// Rule 9: ok, degraded, issues_found, no status...
	if in.Executing {
		return Unknown
	}
	return NotApplicable
}

// ResultStatus is result_status: the result's status string when it is a word of the
// vocabulary; "planned" for a non-executing call whose result has no status; nil (not
// established) otherwise, and for permission events. A status outside the vocabulary
// is nil, never the string: a tool result is not trusted to carry only status words
// (a planted secret reached the log that way, issue 15.9).
func ResultStatus(in OutcomeInput) *string {
	if isPermissionEvent(in.Event) {
		return nil
	}
	if s, ok := in.Result["status"].(string); ok {
		if in.Vocabulary.Has(s) {
			return &s
		}
		return nil
	}
	if in.HasExecute && !in.Executing {
		return new("planned")
	}
	return nil
}

// ExecutionStarted is execution_started: the result's boolean when it has one; false
// for an explicit non-executing call; nil (not established) otherwise. It is
// independent of the outcome. Permission events happen before any run: nil.
func ExecutionStarted(in OutcomeInput) *bool {
	if isPermissionEvent(in.Event) {
		return nil
	}
	if b, ok := in.Result["execution_started"].(bool); ok {
		return &b
	}
	if in.HasExecute && !in.Executing {
		return new(false)
	}
	return nil
}

// ShortName is the part of a tool name after the last "__" (the whole name if none).
func ShortName(tool string) string {
	if i := strings.LastIndex(tool, "__"); i >= 0 {
		return tool[i+2:]
	}
	return tool
}

// maxDecodeDepth bounds the nested-result recursion of DecodeResult.
const maxDecodeDepth = 8

// DecodeResult turns a hook's tool_response into a result object: an object with
// a string status is taken as is; an object with a nested result object is recursed
// into; an object with a content list gives the first text item that parses as a JSON
// object (status or not); a string is parsed as a JSON object; anything else is nil.
func DecodeResult(v any) map[string]any { return decodeResult(v, 0) }

func decodeResult(v any, depth int) map[string]any {
	if depth > maxDecodeDepth {
		return nil
	}
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["status"].(string); ok {
			return t
		}
		if inner, ok := t["result"].(map[string]any); ok {
			return decodeResult(inner, depth+1)
		}
		if content, ok := t["content"].([]any); ok {
			for _, item := range content {
				m, ok := item.(map[string]any)
				if !ok {
					continue
				}
				if text, ok := m["text"].(string); ok {
					if obj := parseObject(text); obj != nil {
						return obj
					}
				}
			}
		}
		return nil
	case string:
		return parseObject(t)
	}
	return nil
}

func parseObject(s string) map[string]any {
	var m map[string]any
	if json.Unmarshal([]byte(s), &m) != nil {
		return nil
	}
	return m
}

func isPermissionEvent(event string) bool {
	return event == EventPreToolUse || event == EventPermissionRequest
}

// Truthy is the truthiness of a payload field the outcome rules use: non-empty strings and
// containers, non-zero numbers, true. Hooks use it for error_present too.
func Truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case float64:
		return t != 0
	case json.Number:
		f, err := t.Float64()
		return err != nil || f != 0
	case int:
		return t != 0
	case int64:
		return t != 0
	case []any:
		return len(t) > 0
	case map[string]any:
		return len(t) > 0
	}
	return true
}

// integer reports v as an integer when it is a JSON integer (never a bool).
func integer(v any) (int64, bool) {
	switch t := v.(type) {
	case float64:
		if t == math.Trunc(t) && !math.IsInf(t, 0) && math.Abs(t) < 1<<53 {
			return int64(t), true
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, true
		}
	case int:
		return int64(t), true
	case int64:
		return t, true
	}
	return 0, false
}
