package audit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
