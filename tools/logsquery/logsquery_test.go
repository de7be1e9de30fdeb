package logsquery

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/schema"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

func writeLines(t testing.TB, dir, name string, recs ...map[string]any) {
	t.Helper()
	var b bytes.Buffer
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

type m = map[string]any

// history is a predecessor and a current segment covering every filter rule.
func history(t *testing.T) string {
	dir := t.TempDir()
	writeLines(t, dir, audit.PrevName,
		m{"tool_use_id": "p1", "tool_name": "capability_run", "execution_outcome": "failed"},
		m{"tool_use_id": "p2", "tool_name": "mcp__plugin_windows-dev-agent_windows-dev-agent__package_install", "execution_outcome": "succeeded"},
		m{"tool_use_id": "p3", "tool_name": "Bash", "execution_outcome": "not_applicable", "permission_decision": "ask"},
		m{"tool_use_id": "p4", "tool_name": "sandbox_run", "execution_outcome": "unknown", "success": false},
	)
	writeLines(t, dir, audit.LogName,
		m{"tool_use_id": "c1", "tool_name": "env_inspect", "event": "PostToolUseFailure", "success": false}, // legacy failure
		m{"tool_use_id": "c2", "tool_name": "mcp__windows_dev_agent__sandbox_run", "execution_outcome": "failed"},
		m{"tool_use_id": "c3", "tool_name": "package_install", "execution_outcome": "not_applicable", "permission_decision": "allow"},
		m{"tool_use_id": "c4", "tool_name": "capability_run", "execution_outcome": "not_applicable", "permission_decision": "host-default"},
		m{"tool_use_id": "c5", "tool_name": "capability_run", "execution_outcome": "not_applicable", "permission_decision": nil},
		m{"tool_use_id": "c6", "tool_name": "capability_run", "execution_outcome": "not_applicable", "permission_decision": "deny"},
		m{"tool_use_id": "c7", "tool_name": "capability_run", "execution_outcome": "not_executed", "result_status": "invalid_input"},
		m{"tool_use_id": "c8", "tool_name": "capability_run", "execution_outcome": "not_executed", "result_status": "blocked"},
		m{"tool_use_id": "c9", "tool_name": "capability_run", "execution_outcome": "not_executed", "result_status": "planned"},
		m{"tool_use_id": "c10", "tool_name": "Bash", "execution_outcome": "not_applicable", "permission_denied": true},
		m{"tool_use_id": "c11", "tool_name": "capability_run", "execution_outcome": "not_executed", "result_status": "stale_plan"},
		m{"tool_use_id": "c12", "tool_name": "capability_run", "execution_outcome": "not_executed", "result_status": "unavailable"},
	)
	return dir
}

func useIDs(o Out) []string {
	out := []string{}
	for _, ev := range o.Events {
		out = append(out, ev["tool_use_id"].(string))
	}
	return out
}

func TestQueryFilters(t *testing.T) {
	t.Parallel()
	dir := history(t)
	tests := []struct {
		filter  string
		lastN   int
		want    []string
		matched int
	}{
		{"all", 0, []string{"p1", "p2", "p3", "p4", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12"}, 16},
		{"", 3, []string{"c10", "c11", "c12"}, 16},
		// Failures are failed calls and refused ones (a denial, invalid_input, blocked,
		// stale_plan); a plan and an unavailable tool are neither.
		{"failures", 20, []string{"p1", "c1", "c2", "c6", "c7", "c8", "c10", "c11"}, 8},
		{"failures", 1, []string{"c11"}, 8},
		{"installs", 20, []string{"p2", "c3"}, 2},
		{"sandbox", 20, []string{"p4", "c2"}, 2},
		{"approvals", 20, []string{"p3", "c3", "c6"}, 3},
		{"all", 200, []string{"p1", "p2", "p3", "p4", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12"}, 16},
	}
	for _, tt := range tests {
		t.Run(tt.filter+"/"+itoa(tt.lastN), func(t *testing.T) {
			t.Parallel()
			got, err := Query(dir, tt.lastN, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, useIDs(got)); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			if got.Matched != tt.matched || got.Scope != "persistent_history" || got.Status.Status != "ok" {
				t.Errorf("matched=%d scope=%q status=%q, want %d, persistent_history, ok", got.Matched, got.Scope, got.Status.Status, tt.matched)
			}
		})
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestQueryRejectsBadArguments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		lastN   int
		filter  string
		wantErr string
	}{
		{-1, "all", "last_n"},
		{201, "all", "last_n"},
		{20, "everything", "filter"},
		{20, "Failures", "filter"},
	}
	for _, tt := range tests {
		if _, err := Query(dir, tt.lastN, tt.filter); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Query(%d, %q) error = %v, want one naming %s", tt.lastN, tt.filter, err, tt.wantErr)
		}
	}
}

// TestOutputShape pins the JSON: events (an empty list when nothing matched), matched,
// scope and status; never data_dir or the data dir's path.
func TestOutputShape(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "never-created")
	out, err := Query(dir, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"status":"ok","execution_started":false,"events":[],"matched":0,"scope":"persistent_history"}`
	if string(b) != want {
		t.Errorf("output\n%s\nwant\n%s", b, want)
	}
	full, _ := json.Marshal(must(Query(history(t), 0, "all")))
	if strings.Contains(string(full), "data_dir") || strings.Contains(string(full), os.TempDir()) {
		t.Errorf("output exposes the data dir: %s", full)
	}
}

func must(o Out, err error) Out {
	if err != nil {
		panic(err)
	}
	return o
}

// TestEventsAreMetadataOnly: a legacy record that stored arguments or a response, or
// put a wrong type in a metadata key, comes back with only well-typed metadata keys.
func TestEventsAreMetadataOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeLines(t, dir, audit.LogName, m{
		"schema_version": 1, "ts": "2026-01-01T00:00:00.000000Z", "event": "PostToolUse", "success": true,
		"tool_name": "capability_run", "execution_outcome": "succeeded", "execution_started": true,
		"duration_ms": 12.5, "result_status": nil,
		"tool_input":    m{"command": "SECRET-cmd"},
		"tool_response": "SECRET-out",
		"stdout":        "SECRET-stdout",
		"session_id":    m{"nested": "SECRET-typed"},
		"error_present": "yes",
	})
	out := must(Query(dir, 0, "all"))
	want := []Event{{"ts": "2026-01-01T00:00:00.000000Z", "event": "PostToolUse", "success": true,
		"tool_name": "capability_run", "execution_outcome": "succeeded", "execution_started": true,
		"duration_ms": 12.5, "result_status": nil}}
	if d := cmp.Diff(want, out.Events); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
}

// TestMirrorsGivenOnce (issue 24): event and success, the legacy mirrors of
// lifecycle_event and lifecycle_success, are given only where they say something the
// current keys do not; schema_version never is.
func TestMirrorsGivenOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeLines(t, dir, audit.LogName,
		m{"schema_version": 1, "lifecycle_event": "tools/call", "event": "tools/call", "lifecycle_success": true, "success": true, "tool_name": "a"},
		m{"schema_version": 1, "lifecycle_event": "PreToolUse", "event": "PreToolUse", "lifecycle_success": nil, "success": nil, "tool_name": "b"},
		m{"event": "PostToolUse", "success": false, "tool_name": "c"}, // legacy: only the mirrors
		m{"lifecycle_event": "PostToolUse", "event": "odd", "lifecycle_success": true, "success": "yes", "tool_name": "d"},
	)
	out := must(Query(dir, 0, "all"))
	want := []Event{
		{"lifecycle_event": "tools/call", "lifecycle_success": true, "tool_name": "a"},
		{"lifecycle_event": "PreToolUse", "lifecycle_success": nil, "tool_name": "b"},
		{"event": "PostToolUse", "success": false, "tool_name": "c"},
		{"lifecycle_event": "PostToolUse", "event": "odd", "lifecycle_success": true, "tool_name": "d"},
	}
	if d := cmp.Diff(want, out.Events); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	var text strings.Builder
	if err := WriteText(&text, out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"  a  tools/call  ", "  b  PreToolUse  ", "  c  PostToolUse  ", "  d  PostToolUse  "} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("wda logs text lacks %q:\n%s", w, text.String())
		}
	}
}

// TestOutputSchema: events have a concrete item schema naming every metadata key (and
// nothing of the data directory). Below its root an output schema says types, not
// presence or closedness (schema.OutputOf); the events themselves never carry another
// key (TestEventsAreMetadataOnly).
func TestOutputSchema(t *testing.T) {
	t.Parallel()
	s := schema.Out(New(DefaultDeps())) // panics on a bare `true` sub-schema
	b, _ := json.Marshal(s)
	var doc struct {
		Properties map[string]struct {
			Items struct {
				Properties map[string]any `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	items := doc.Properties["events"].Items
	if len(items.Properties) == 0 {
		t.Fatalf("events items schema: %s", b)
	}
	for _, k := range []string{"execution_outcome", "tool_name", "permission_decision", "session_id", "lifecycle_event", "event"} {
		if _, ok := items.Properties[k]; !ok {
			t.Errorf("events items lack %s", k)
		}
	}
	if _, ok := doc.Properties["data_dir"]; ok {
		t.Error("the output schema has data_dir")
	}
}

func TestWriteText(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	out := Out{Status: tools.Status{Status: "ok"}, Matched: 3, Scope: Scope, Events: []Event{
		{"ts": "2026-01-01T00:00:00.000000Z", "tool_name": "package_install", "event": "PreToolUse",
			"execution_outcome": "not_applicable", "permission_decision": "ask", "safety_class": "approval-required"},
	}}
	if err := WriteText(&b, out); err != nil {
		t.Fatal(err)
	}
	want := "2026-01-01T00:00:00.000000Z  package_install  PreToolUse  outcome=not_applicable status=- decision=ask class=approval-required\n" +
		"3 matching event(s), showing the last 1 (persistent_history)\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("text (-want +got):\n%s", d)
	}
}

// TestOverMCP serves logs_query with the audit sink: the strict schema rejects bad
// arguments, and a second call sees the first call's own audit record.
func TestOverMCP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	reg := tools.New()
	reg.Register(New(DefaultDeps()))
	srv := runtime.NewServer(reg, runtime.Options{DataDir: dir, ProjectDir: dir,
		Getenv: func(string) string { return "" }})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	for _, bad := range []map[string]any{{"last_n": 0}, {"last_n": 201}, {"last_n": 1.5}, {"filter": "everything"}, {"data_dir": "/tmp"}} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "logs_query", Arguments: bad})
		if err == nil && !res.IsError {
			t.Errorf("arguments %v were accepted", bad)
		}
	}
	call := func() map[string]any {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "logs_query", Arguments: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := res.StructuredContent.(map[string]any)
		return sc
	}
	call()
	second := call()
	events, _ := second["events"].([]any)
	if second["status"] != "ok" || second["scope"] != "persistent_history" {
		t.Fatalf("answer: %v", second)
	}
	// 5 rejected calls and the first good call were audited (the second is recorded
	// only after it answers).
	if len(events) != 6 || second["matched"] != 6.0 {
		t.Fatalf("got %d events (matched %v), want 6: %v", len(events), second["matched"], events)
	}
	if err := testkit.CheckOutput(New(DefaultDeps()), second); err != nil {
		t.Errorf("answer does not match the output schema: %v", err)
	}
	last, _ := events[5].(map[string]any)
	if last["tool_name"] != "logs_query" || last["execution_outcome"] != "not_applicable" || last["result_status"] != "ok" || last["safety_class"] != "read-only" {
		t.Errorf("the first call's record: %v", last)
	}
}
