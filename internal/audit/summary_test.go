package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

func TestSummarize(t *testing.T) {
	events := []map[string]any{
		{"event": "PostToolUse", "tool_name": "capability_run", "execution_outcome": "succeeded", "execution_started": true},
		{"event": "PostToolUse", "tool_name": "package_install", "execution_outcome": "failed", "execution_started": true},
		{"event": "PostToolUse", "tool_name": "sandbox_run", "execution_outcome": "unknown", "execution_started": true},
		// external process started, yet not_applicable: counted as a start only
		{"event": "PostToolUse", "tool_name": "tool_discover", "execution_outcome": "not_applicable", "execution_started": true},
		{"event": "PostToolUse", "tool_name": "package_install", "execution_outcome": "not_executed", "execution_started": false},
		// a denial is not_applicable and counts only as a denial
		{"event": "PreToolUse", "tool_name": "Bash", "execution_outcome": "not_applicable", "permission_denied": true, "permission_decision": "deny"},
		{"event": "PreToolUse", "tool_name": "capability_run", "execution_outcome": "not_applicable", "permission_denied": false, "permission_decision": "ask"},
		// legacy failure: no outcome, success false
		{"event": "PostToolUseFailure", "tool_name": "env_inspect", "success": false},
		// an illegal outcome counts in no outcome counter
		{"tool_name": "x", "execution_outcome": "exploded"},
		// unknown is never a failure, even with success false
		{"event": "PostToolUse", "execution_outcome": "unknown", "success": false},
	}
	got := Summarize(events)
	want := Summary{
		TotalEvents: 10,
		EventTypes:  map[string]int{"PostToolUse": 6, "PreToolUse": 2, "PostToolUseFailure": 1, "unknown": 1},
		Tools: map[string]int{"capability_run": 2, "package_install": 2, "sandbox_run": 1, "tool_discover": 1,
			"Bash": 1, "env_inspect": 1, "x": 1},
		ExecutionSucceeded:     1,
		ExecutionFailed:        2,
		ExecutionUnknown:       2,
		NotExecuted:            1,
		NotApplicable:          3,
		ExternalProcessStarted: 4,
		PermissionDenials:      1,
		LastFailureTool:        "env_inspect",
		LastDeniedTool:         "Bash",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Summarize (-want +got):\n%s", d)
	}
	wantMsg := "Windows Dev Agent session audit: events=10, execution_succeeded=1, execution_failed=2, execution_unknown=2, not_executed=1, external_process_started=4, permission_denials=1."
	if msg := got.CodexMessage(); msg != wantMsg {
		t.Errorf("CodexMessage =\n%s\nwant\n%s", msg, wantMsg)
	}
	text := got.Text(true)
	for _, s := range []string{"Session Audit", "Events: 10", "failed: 2", "unknown: 2", "external processes started: 4",
		"permission denials: 1", "package_install: 2", "last failed execution: env_inspect", "last denied request: Bash"} {
		if !strings.Contains(text, s) {
			t.Errorf("report lacks %q:\n%s", s, text)
		}
	}
	if e := Summarize(nil).Text(false); !strings.Contains(e, "Persistent Audit History") || !strings.Contains(e, "no Windows Dev Agent events recorded") {
		t.Errorf("empty history report:\n%s", e)
	}
}

// TestSessionReportNeverMixesSessions goes through Append and ReadSession, across both
// segments.
func TestSessionReportNeverMixesSessions(t *testing.T) {
	dir := t.TempDir()
	l := logFile{dir: dir, limit: 600, timeout: LockTimeout}
	for i := range 12 {
		r := Record{Event: EventPostToolUse, ExecutionOutcome: Failed, ExecutionStarted: new(true), SessionID: "mine", ToolName: "capability_run"}
		if i%2 == 1 {
			r.SessionID, r.ToolName, r.ExecutionOutcome = "theirs", "secret_other_tool", Succeeded
		}
		if err := l.append(r); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := ReadSession(dir, "mine")
	if err != nil {
		t.Fatal(err)
	}
	prev, _ := rawLines(t, dir+"/"+PrevName)
	if len(prev) == 0 {
		t.Fatal("the test did not rotate")
	}
	s := Summarize(evs)
	if s.ExecutionSucceeded != 0 || s.Tools["secret_other_tool"] != 0 || s.TotalEvents != s.ExecutionFailed {
		t.Errorf("another session leaked into the report: %+v", s)
	}
	if strings.Contains(s.Text(true), "secret_other_tool") {
		t.Error("another session's tool name is in the report")
	}
}

const claudeRun = "mcp__plugin_windows-dev-agent_windows-dev-agent__capability_run"

// A call of capability_run as each writer records it (the shapes the gate, the
// trace hook and the server's sink write).
func gateRecord(session, useID, tool, decision string) Record {
	denied := decision == DecisionDeny
	return Record{Event: EventPreToolUse, ExecutionOutcome: NotApplicable, PermissionDenied: &denied, PermissionDecision: decision,
		SafetyClass: "approval-required", SessionID: session, ToolName: tool, ToolUseID: useID}
}

func traceRecord(session, useID, tool string) Record {
	in := FromToolInput(EventPostToolUse, tool, obj{"execute": true}, obj{"status": "completed", "succeeded": true, "execution_started": true})
	return Record{Event: EventPostToolUse, Success: new(true), ExecutionStarted: ExecutionStarted(in), ExecutionOutcome: Outcome(in),
		ResultStatus: ResultStatus(in), SessionID: session, ToolName: tool, ToolUseID: useID, ErrorPresent: new(false)}
}

func serverRecord(session string) Record {
	return FromCall(Call{Tool: "capability_run", Class: string(tools.ApprovalRequired), Host: "claude", SessionID: session,
		Execute: true, PlanFirst: true, MayStartProcess: true,
		Result: json.RawMessage(`{"status":"completed","succeeded":true,"execution_started":true}`)})
}

// TestSummaryCountsCalls is issue 14.9: three capability_run calls are three calls in
// the Stop summary however many writers recorded each one.
func TestSummaryCountsCalls(t *testing.T) {
	three := func(each func(i int) []Record) []Record {
		var out []Record
		for i := range 3 {
			out = append(out, each(i)...)
		}
		return out
	}
	uid := func(i int) string { return "toolu_" + itoa(i) }
	tests := []struct {
		name      string
		records   []Record
		scoped    Summary // of session S
		unscopedN int     // calls in the whole history
	}{
		{"claude: gate, server without a session, trace", three(func(i int) []Record {
			return []Record{gateRecord("S", uid(i), claudeRun, DecisionAsk), serverRecord(""), traceRecord("S", uid(i), claudeRun)}
		}), Summary{TotalEvents: 3, EventTypes: map[string]int{"PostToolUse": 3}, Tools: map[string]int{claudeRun: 3},
			ExecutionSucceeded: 3, ExternalProcessStarted: 3}, 3},
		{"claude: the server knows the session", three(func(i int) []Record {
			return []Record{gateRecord("S", uid(i), claudeRun, DecisionAsk), serverRecord("S"), traceRecord("S", uid(i), claudeRun)}
		}), Summary{TotalEvents: 3, EventTypes: map[string]int{"PostToolUse": 3}, Tools: map[string]int{claudeRun: 3},
			ExecutionSucceeded: 3, ExternalProcessStarted: 3}, 3},
		{"codex: gate, permission request, server, trace", three(func(i int) []Record {
			tool := "mcp__windows_dev_agent__capability_run"
			pr := gateRecord("S", uid(i), tool, DecisionHostDefault)
			pr.Event = EventPermissionRequest
			return []Record{gateRecord("S", uid(i), tool, DecisionHostDefault), pr, serverRecord(""), traceRecord("S", uid(i), tool)}
		}), Summary{TotalEvents: 3, EventTypes: map[string]int{"PostToolUse": 3}, Tools: map[string]int{"mcp__windows_dev_agent__capability_run": 3},
			ExecutionSucceeded: 3, ExternalProcessStarted: 3}, 3},
		{"server only (no hooks installed)", three(func(int) []Record { return []Record{serverRecord("S")} }),
			Summary{TotalEvents: 3, EventTypes: map[string]int{"tools/call": 3}, Tools: map[string]int{"capability_run": 3},
				ExecutionSucceeded: 3, ExternalProcessStarted: 3}, 3},
		{"hooks only", three(func(i int) []Record {
			return []Record{gateRecord("S", uid(i), claudeRun, DecisionAsk), traceRecord("S", uid(i), claudeRun)}
		}), Summary{TotalEvents: 3, EventTypes: map[string]int{"PostToolUse": 3}, Tools: map[string]int{claudeRun: 3},
			ExecutionSucceeded: 3, ExternalProcessStarted: 3}, 3},
		{"one call denied, two run", three(func(i int) []Record {
			if i == 1 {
				return []Record{gateRecord("S", uid(i), claudeRun, DecisionDeny)}
			}
			return []Record{gateRecord("S", uid(i), claudeRun, DecisionAsk), serverRecord(""), traceRecord("S", uid(i), claudeRun)}
		}), Summary{TotalEvents: 3, EventTypes: map[string]int{"PostToolUse": 2, "PreToolUse": 1}, Tools: map[string]int{claudeRun: 3},
			ExecutionSucceeded: 2, NotApplicable: 1, ExternalProcessStarted: 2, PermissionDenials: 1, LastDeniedTool: claudeRun}, 3},
		{"an asked call the user declined never completes", three(func(i int) []Record {
			if i == 2 {
				return []Record{gateRecord("S", uid(i), claudeRun, DecisionAsk)}
			}
			return []Record{gateRecord("S", uid(i), claudeRun, DecisionAsk), traceRecord("S", uid(i), claudeRun)}
		}), Summary{TotalEvents: 3, EventTypes: map[string]int{"PostToolUse": 2, "PreToolUse": 1}, Tools: map[string]int{claudeRun: 3},
			ExecutionSucceeded: 2, NotApplicable: 1, ExternalProcessStarted: 2}, 3},
		{"the host's own tools have only a decision", three(func(i int) []Record {
			return []Record{gateRecord("S", "", "Bash", DecisionHostDefault)}
		}), Summary{TotalEvents: 3, EventTypes: map[string]int{"PreToolUse": 3}, Tools: map[string]int{"Bash": 3}, NotApplicable: 3}, 3},
		{"another session's calls are its own", three(func(i int) []Record {
			return []Record{gateRecord("S", uid(i), claudeRun, DecisionAsk), traceRecord("S", uid(i), claudeRun),
				gateRecord("T", uid(i), claudeRun, DecisionAsk), traceRecord("T", uid(i), claudeRun)}
		}), Summary{TotalEvents: 3, EventTypes: map[string]int{"PostToolUse": 3}, Tools: map[string]int{claudeRun: 3},
			ExecutionSucceeded: 3, ExternalProcessStarted: 3}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, r := range tt.records {
				if err := Append(dir, r); err != nil {
					t.Fatal(err)
				}
			}
			evs, err := ReadSession(dir, "S")
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.scoped, Summarize(evs)); d != "" {
				t.Errorf("session summary (-want +got):\n%s", d)
			}
			all, err := Read(dir)
			if err != nil {
				t.Fatal(err)
			}
			if n := Summarize(all).TotalEvents; n != tt.unscopedN {
				t.Errorf("history summary counts %d calls, want %d", n, tt.unscopedN)
			}
		})
	}
}

// TestGroupCallsServerPairing: a server record that carries the host's tool_use_id
// pairs exactly; one whose id no hook completion has is a call of its own even when
// hook records exist.
func TestGroupCallsServerPairing(t *testing.T) {
	paired := serverRecord("S")
	paired.ToolUseID = "u1"
	lone := serverRecord("S")
	lone.ToolUseID = "u9"
	var evs []map[string]any
	for _, r := range []Record{gateRecord("S", "u1", claudeRun, DecisionAsk), paired, traceRecord("S", "u1", claudeRun), lone} {
		line, err := r.normalize(fixedNow).line()
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ParseLines(line)...)
	}
	facts := make([]fact, len(evs))
	for i, ev := range evs {
		facts[i] = factOf(ev)
	}
	if d := cmp.Diff([]call{{rep: 2}, {rep: 3}}, groupCalls(facts), cmp.AllowUnexported(call{})); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
}

// TestStopReportGolden pins the Stop reports of a fixture session (three
// capability_run calls, recorded by the gate, the server and the trace hook, one call
// denied, plus a Bash command) in testdata/stop.golden.
func TestStopReportGolden(t *testing.T) {
	evs, err := ReadSession("testdata/calls", "S")
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize(evs)
	testkit.Golden(t, "testdata/stop.golden", []byte(s.Text(true)+"\n"+s.CodexMessage()+"\n"), *update)
}
