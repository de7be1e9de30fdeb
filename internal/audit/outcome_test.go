package audit

import (
	"encoding/json"
	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/tools"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type obj = map[string]any

const claudeSearch = "mcp__plugin_windows-dev-agent_windows-dev-agent__package_search"

func TestOutcome(t *testing.T) {
	tests := []struct {
		name        string
		in          OutcomeInput
		want        string
		wantStatus  *string
		wantStarted *bool
	}{
		// plans and executions
		{"plan", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": false}, obj{"status": "planned", "execution_started": false}), NotExecuted, new("planned"), new(false)},
		{"plan without a result status", FromToolInput(EventPostToolUse, "package_install", obj{"execute": false}, nil), NotExecuted, new("planned"), new(false)},
		{"non-boolean execute is a plan", FromToolInput(EventPostToolUse, "package_install", obj{"execute": "true"}, nil), NotExecuted, new("planned"), new(false)},
		{"completed succeeded", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "succeeded": true, "execution_started": true}), Succeeded, new("completed"), new(true)},
		{"completed not succeeded", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "succeeded": false, "execution_started": true}), Failed, new("completed"), new(true)},
		{"sandbox launched", FromToolInput(EventPostToolUse, "sandbox_run", obj{"execute": true}, obj{"status": "launched", "execution_started": true}), Unknown, new("launched"), new(true)},
		{"stale plan", FromToolInput(EventPostToolUse, "package_install", obj{"execute": true}, obj{"status": "stale_plan", "execution_started": false}), NotExecuted, new("stale_plan"), new(false)},
		{"execute without a result", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, nil), Unknown, nil, nil},
		// diagnostics that start a process
		{"search completed", FromToolInput(EventPostToolUse, "package_search", obj{}, obj{"status": "completed", "succeeded": true, "execution_started": true}), Succeeded, new("completed"), new(true)},
		{"search failed after start", FromToolInput(EventPostToolUse, "package_search", obj{}, obj{"status": "failed", "execution_started": true}), Failed, new("failed"), new(true)},
		{"search failed before start", FromToolInput(EventPostToolUse, "package_search", obj{}, obj{"status": "failed", "execution_started": false}), NotExecuted, new("failed"), new(false)},
		{"search failed, start unknown", FromToolInput(EventPostToolUse, "package_search", obj{}, obj{"status": "failed"}), Failed, new("failed"), nil},
		// timeouts: rule 4 and its exception
		{"executing timeout", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "failed", "execution_started": true, "timed_out": true}), Unknown, new("failed"), new(true)},
		{"diagnostic timeout falls to failed", FromToolInput(EventPostToolUse, "tool_discover", obj{}, obj{"status": "failed", "execution_started": true, "timed_out": true}), Failed, new("failed"), new(true)},
		// lifecycle observation errors (rule 3)
		{"lifecycle error, mutating", FromToolInput(EventPostToolUse, "package_install", obj{"execute": true}, obj{"status": "completed", "succeeded": true, "execution_started": true, "lifecycle_error": "wait failed"}), Unknown, new("completed"), new(true)},
		{"lifecycle error, diagnostic", FromToolInput(EventPostToolUse, "tool_discover", obj{}, obj{"status": "failed", "execution_started": true, "lifecycle_error": "wait failed"}), Unknown, new("failed"), new(true)},
		{"empty lifecycle error is not an error", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "succeeded": true, "execution_started": true, "lifecycle_error": ""}), Succeeded, new("completed"), new(true)},
		{"lifecycle error without a start", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "failed", "execution_started": false, "lifecycle_error": "x"}), NotExecuted, new("failed"), new(false)},
		// statuses that are not executions (rule 9)
		{"issues_found", FromToolInput(EventPostToolUse, "mcp_audit", obj{}, obj{"status": "issues_found"}), NotApplicable, new("issues_found"), nil},
		{"env_inspect ok", FromToolInput(EventPostToolUse, "env_inspect", obj{}, obj{"status": "ok", "execution_started": true}), NotApplicable, new("ok"), new(true)},
		{"unrecognised status while executing", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "incomplete", "execution_started": true}), Unknown, new("incomplete"), new(true)},
		// permission events
		{"PreToolUse", FromToolInput(EventPreToolUse, "package_install", obj{"execute": true}, nil), NotApplicable, nil, nil},
		{"PreToolUse for a plan", FromToolInput(EventPreToolUse, "package_install", obj{"execute": false}, nil), NotApplicable, nil, nil},
		{"PermissionRequest", FromToolInput(EventPermissionRequest, "capability_run", obj{"execute": true}, obj{"status": "completed", "succeeded": true}), NotApplicable, nil, nil},
		// started, yet not_applicable
		{"tool_discover started, no status", FromToolInput(EventPostToolUse, "tool_discover", obj{}, obj{"execution_started": true, "tools": []any{}}), NotApplicable, nil, new(true)},
		// rule 2 variants (no decodable result)
		{"failure event, may start", FromToolInput(EventPostToolUseFailure, claudeSearch, obj{}, nil), Unknown, nil, nil},
		{"failure event, cannot start", FromToolInput(EventPostToolUseFailure, "workflow_plan", obj{}, nil), NotApplicable, nil, nil},
		{"failure event, host scan", FromToolInput(EventPostToolUseFailure, "ecosystem_scan", obj{"include_host": true}, nil), Unknown, nil, nil},
		{"failure event, project scan", FromToolInput(EventPostToolUseFailure, "ecosystem_scan", obj{"include_host": false}, nil), NotApplicable, nil, nil},
		{"no result, env_inspect", FromToolInput(EventPostToolUse, "env_inspect", nil, nil), Unknown, nil, nil},
		{"no result, logs_query", FromToolInput(EventPostToolUse, "logs_query", nil, nil), NotApplicable, nil, nil},
		{"server call, no result, read-only", FromToolInput(EventToolCall, "mcp_audit", obj{}, nil), NotApplicable, nil, nil},
		// rule 5 evidence
		{"returncode 0", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "returncode": 0.0}), Succeeded, new("completed"), nil},
		{"returncode 0 as json.Number", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "returncode": json.Number("0")}), Succeeded, new("completed"), nil},
		{"returncode 3", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "returncode": 3.0}), Failed, new("completed"), nil},
		{"returncode bool is not an integer", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "returncode": false}), Unknown, new("completed"), nil},
		{"returncode 1.5 is not an integer", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "returncode": 1.5}), Unknown, new("completed"), nil},
		{"returncode null", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "returncode": nil}), Unknown, new("completed"), nil},
		{"succeeded wins over returncode", FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": "completed", "succeeded": false, "returncode": 0.0}), Failed, new("completed"), nil},
	}
	for _, st := range []string{"planned", "blocked", "unavailable", "invalid_input", "stale_plan", "approval_required", "unknown_capability", "configuration_error"} {
		tests = append(tests, struct {
			name        string
			in          OutcomeInput
			want        string
			wantStatus  *string
			wantStarted *bool
		}{"refusal " + st, FromToolInput(EventPostToolUse, "capability_run", obj{"execute": true}, obj{"status": st, "execution_started": false}), NotExecuted, new(st), new(false)})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Outcome(tt.in); got != tt.want {
				t.Errorf("Outcome = %q, want %q", got, tt.want)
			}
			if d := cmp.Diff(tt.wantStatus, ResultStatus(tt.in)); d != "" {
				t.Errorf("ResultStatus (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantStarted, ExecutionStarted(tt.in)); d != "" {
				t.Errorf("ExecutionStarted (-want +got):\n%s", d)
			}
		})
	}
}

func TestMayStartProcess(t *testing.T) {
	tests := []struct {
		tool  string
		input obj
		want  bool
	}{
		{"capability_run", obj{"execute": true}, true},
		{"capability_run", obj{"execute": false}, false},
		{"mcp__windows-dev-agent__package_install", obj{"execute": true}, true},
		{"mcp__windows_dev_agent__sandbox_run", obj{}, false},
		{"env_inspect", nil, true},
		{"tool_discover", nil, true},
		{claudeSearch, nil, true},
		{"ecosystem_scan", obj{"include_host": true}, true},
		{"ecosystem_scan", obj{"include_host": "yes"}, false},
		{"workflow_plan", nil, false},
		{"logs_query", nil, false},
		{"mcp_audit", obj{"include_host": true}, false},
		{"Bash", nil, false},
	}
	for _, tt := range tests {
		sp, ok := classify.Shipped.Lookup(ShortName(tt.tool))
		if got := ok && sp.Starts.Holds(tools.Args(tt.input)); got != tt.want {
			t.Errorf("%q declares may-start-process %v for %v, want %v", tt.tool, got, tt.input, tt.want)
		}
	}
}

func TestDecodeResult(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want map[string]any
	}{
		{"object with status", obj{"status": "ok", "x": 1.0}, obj{"status": "ok", "x": 1.0}},
		{"nested result", obj{"result": obj{"status": "completed"}}, obj{"status": "completed"}},
		{"nested result without status", obj{"result": obj{"content": []any{obj{"type": "text", "text": `{"status":"failed"}`}}}}, obj{"status": "failed"}},
		{"content: first text that is an object", obj{"content": []any{
			obj{"type": "image"}, obj{"type": "text", "text": "not json"}, obj{"type": "text", "text": "[1]"},
			obj{"type": "text", "text": `{"execution_started":true}`}, obj{"type": "text", "text": `{"status":"late"}`},
		}}, obj{"execution_started": true}},
		{"content without an object", obj{"content": []any{obj{"type": "text", "text": "oops"}}}, nil},
		{"string", `{"status":"launched"}`, obj{"status": "launched"}},
		{"string that is not an object", `"launched"`, nil},
		{"number", 3.0, nil},
		{"nil", nil, nil},
		{"object without status, result or content", obj{"stdout": "secret"}, nil},
		{"non-string status is not a status", obj{"status": 1.0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, DecodeResult(tt.in)); d != "" {
				t.Errorf("DecodeResult (-want +got):\n%s", d)
			}
		})
	}
	// Deep nesting is bounded, not a stack overflow.
	var v any = obj{"status": "ok"}
	for range 100 {
		v = obj{"result": v}
	}
	if DecodeResult(v) != nil {
		t.Error("a 100-deep nested result was decoded")
	}
}

// FuzzDecodeResult feeds arbitrary JSON (and raw strings) through decoding and
// derivation: nothing panics and the outcome is always one of the five values.
func FuzzDecodeResult(f *testing.F) {
	f.Add(`{"status":"completed","succeeded":true,"execution_started":true}`, "capability_run", true)
	f.Add(`{"content":[{"type":"text","text":"{\"status\":\"launched\"}"}]}`, "sandbox_run", true)
	f.Add(`{"result":{"result":{"status":"failed","execution_started":false}}}`, "package_search", false)
	f.Add(`"{\"status\":\"planned\"}"`, "package_install", false)
	f.Add(`{"status":"completed","returncode":1e400}`, "capability_run", true)
	f.Fuzz(func(t *testing.T, raw, tool string, execute bool) {
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			v = raw
		}
		res := DecodeResult(v)
		for _, ev := range []string{EventPostToolUse, EventPostToolUseFailure, EventPreToolUse, EventToolCall} {
			in := FromToolInput(ev, tool, obj{"execute": execute}, res)
			switch o := Outcome(in); o {
			case Succeeded, Failed, Unknown, NotExecuted, NotApplicable:
			default:
				t.Fatalf("Outcome = %q", o)
			}
			if !execute && in.HasExecute && Outcome(in) != NotExecuted && ev != EventPreToolUse {
				t.Fatalf("a plan (execute:false) gave %q", Outcome(in))
			}
		}
	})
}

// TestOutcomeFacts drives the derivation with explicit facts only, the way the registry
// declarations will: no tool name is involved, and each fact changes what it should.
func TestOutcomeFacts(t *testing.T) {
	tests := []struct {
		name        string
		in          OutcomeInput
		want        string
		wantStatus  *string
		wantStarted *bool
	}{
		{"plan: execute key, not true", OutcomeInput{Event: EventPostToolUse, HasExecute: true}, NotExecuted, new("planned"), new(false)},
		{"plan wins over may-start", OutcomeInput{Event: EventPostToolUse, HasExecute: true, MayStartProcess: true}, NotExecuted, new("planned"), new(false)},
		{"executing, no result", OutcomeInput{Event: EventPostToolUse, HasExecute: true, Executing: true}, Unknown, nil, nil},
		{"may start, no result", OutcomeInput{Event: EventPostToolUseFailure, MayStartProcess: true}, Unknown, nil, nil},
		{"cannot start, no result", OutcomeInput{Event: EventPostToolUseFailure}, NotApplicable, nil, nil},
		{"executing timeout", OutcomeInput{Event: EventToolCall, HasExecute: true, Executing: true, Result: obj{"status": "failed", "execution_started": true, "timed_out": true}}, Unknown, new("failed"), new(true)},
		{"diagnostic timeout", OutcomeInput{Event: EventToolCall, MayStartProcess: true, Result: obj{"status": "failed", "execution_started": true, "timed_out": true}}, Failed, new("failed"), new(true)},
		{"rule 9 executing", OutcomeInput{Event: EventToolCall, HasExecute: true, Executing: true, Result: obj{"status": "ok"}}, Unknown, new("ok"), nil},
		{"rule 9 not executing", OutcomeInput{Event: EventToolCall, MayStartProcess: true, Result: obj{"status": "ok"}}, NotApplicable, new("ok"), nil},
		{"permission event", OutcomeInput{Event: EventPreToolUse, HasExecute: true, Executing: true, Result: obj{"status": "completed"}}, NotApplicable, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Outcome(tt.in); got != tt.want {
				t.Errorf("Outcome = %q, want %q", got, tt.want)
			}
			if d := cmp.Diff(tt.wantStatus, ResultStatus(tt.in)); d != "" {
				t.Errorf("ResultStatus (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantStarted, ExecutionStarted(tt.in)); d != "" {
				t.Errorf("ExecutionStarted (-want +got):\n%s", d)
			}
		})
	}
	// The helper fills the facts from the shipped declarations: ecosystem_scan plans
	// nothing (an execute key means nothing to it) and may start a process with
	// include_host.
	got := FromToolInput(EventPostToolUse, "mcp__windows-dev-agent__ecosystem_scan", obj{"include_host": true, "execute": "yes"}, nil)
	want := OutcomeInput{Event: EventPostToolUse, HasExecute: false, Executing: false, MayStartProcess: true}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(Vocabulary{})); d != "" {
		t.Errorf("FromToolInput (-want +got):\n%s", d)
	}
}

// FromToolInput builds the facts of a call the way the hooks do, from the shipped
// tools' declarations (host/classify's generated table), so the outcome rules are
// tested against what the tools declare.
func FromToolInput(event, tool string, input, result map[string]any) OutcomeInput {
	in := OutcomeInput{Event: event, Result: result}
	sp, ok := classify.Shipped.Lookup(ShortName(tool))
	if !ok {
		// As the hooks treat a tool the table does not know.
		execute, has := input["execute"]
		in.HasExecute, in.Executing, in.MayStartProcess = has, execute == true, true
		return in
	}
	if sp.PlanFirst {
		in.HasExecute, in.Executing = true, input["execute"] == true
	}
	in.MayStartProcess = sp.Starts.Holds(tools.Args(input))
	return in
}
