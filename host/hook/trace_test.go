package hook

import (
	"strings"
	"testing"
)

// Claude trace hooks (docs/hooks.md, "PostToolUse and PostToolUseFailure"): one derived record each, nothing
// on stdout, payload never stored.
func TestClaudeTrace(t *testing.T) {
	reg := testSpecs()
	const secret = "PLANTED-SECRET-9a7e"
	cases := []struct {
		name     string
		hook     string
		tool     string
		input    map[string]any
		response any
		errField any
		outcome  string
		started  any
		status   any
	}{
		{"search succeeded", "post-tool-use", "package_search", map[string]any{"query": secret},
			map[string]any{"status": "completed", "succeeded": true, "execution_started": true, "matches": secret}, nil, "succeeded", true, "completed"},
		{"search failed after start", "post-tool-use", "package_search", map[string]any{"query": "x"},
			map[string]any{"status": "failed", "execution_started": true}, nil, "failed", true, "failed"},
		{"search failed before start", "post-tool-use", "package_search", map[string]any{"query": "x"},
			map[string]any{"status": "failed", "execution_started": false}, nil, "not_executed", false, "failed"},
		{"executing timeout", "post-tool-use", "capability_run", map[string]any{"capability": "x", "execute": true},
			map[string]any{"status": "failed", "execution_started": true, "timed_out": true}, nil, "unknown", true, "failed"},
		{"sandbox launched", "post-tool-use", "sandbox_run", map[string]any{"execute": true},
			`{"status":"launched","execution_started":true}`, nil, "unknown", true, "launched"},
		{"issues_found", "post-tool-use", "mcp_audit", map[string]any{},
			map[string]any{"content": []any{map[string]any{"type": "text", "text": `{"status":"issues_found"}`}}}, nil, "not_applicable", nil, "issues_found"},
		{"plan", "post-tool-use", "package_install", map[string]any{"package_id": secret, "execute": false},
			map[string]any{"status": "planned", "execution_started": false}, nil, "not_executed", false, "planned"},
		{"failure event without result, executing", "post-tool-use-failure", "capability_run", map[string]any{"execute": true},
			nil, "boom " + secret, "unknown", nil, nil},
		{"failure event without result, diagnostic", "post-tool-use-failure", "mcp_audit", map[string]any{},
			nil, "boom", "not_applicable", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := t.TempDir()
			ev := map[string]any{"session_id": "T", "tool_use_id": "U", "tool_name": plug + c.tool, "tool_input": c.input,
				"tool_response": c.response, "duration_ms": 5}
			if c.errField != nil {
				ev["error"] = c.errField
			}
			r := run(t, reg, nil, eventJSON(ev), "claude", c.hook, "--data-dir", data)
			if r.code != 0 || r.stdout != "" {
				t.Fatalf("%+v", r)
			}
			raw, recs := records(t, data)
			if strings.Contains(raw, secret) || strings.Contains(raw, "tool_input") || strings.Contains(raw, "tool_response") {
				t.Fatalf("payload stored: %s", raw)
			}
			rec := recs[0]
			failure := c.hook == "post-tool-use-failure"
			event := map[bool]string{true: "PostToolUseFailure", false: "PostToolUse"}[failure]
			for k, want := range map[string]any{"event": event, "lifecycle_event": event, "success": !failure, "lifecycle_success": !failure,
				"execution_outcome": c.outcome, "execution_started": c.started, "result_status": c.status,
				"error_present": c.errField != nil, "tool_name": plug + c.tool, "session_id": "T", "tool_use_id": "U", "duration_ms": 5.0} {
				if rec[k] != want {
					t.Errorf("%s = %v, want %v", k, rec[k], want)
				}
			}
			if _, has := rec["host"]; has {
				t.Error("Claude trace record carries host")
			}
		})
	}
	// Unparsable input: a warning, no record, exit 0, no output.
	data := t.TempDir()
	r := run(t, reg, nil, "{{", "claude", "post-tool-use", "--data-dir", data)
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "warning") {
		t.Fatalf("%+v", r)
	}
}
