package auditexport

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	otellog "go.opentelemetry.io/otel/log"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// TestEveryFieldIsAnAttribute: a record with every field set gives one attribute per
// JSON field of the line Append would write, under the same name.
func TestEveryFieldIsAnAttribute(t *testing.T) {
	t.Parallel()
	yes, ms, st := true, 2.5, "completed"
	r := audit.Record{SchemaVersion: 1, TS: "2026-01-02T03:04:05.000006Z", LifecycleEvent: "PostToolUse", LifecycleSuccess: &yes,
		Event: "PostToolUse", Success: &yes, ExecutionStarted: &yes, ExecutionOutcome: audit.Succeeded, ResultStatus: &st,
		SessionID: "s", AgentID: "a", AgentType: "t", ToolName: "x", ToolUseID: "u", DurationMS: &ms, ErrorPresent: &yes,
		PermissionDenied: &yes, PermissionDecision: "allow", SafetyClass: "read-only", Host: "codex", Capability: "c",
		PackageID: "p", RefusalField: "f", RefusalRule: "r"}
	b, _ := json.Marshal(r)
	var line map[string]any
	json.Unmarshal(b, &line)
	got := map[string]any{}
	for _, kv := range Attributes(r) {
		got[string(kv.Key)] = kv.Value.AsInterface()
	}
	wantKeys, gotKeys := keys(line), keys(got)
	if diff := cmp.Diff(wantKeys, gotKeys); diff != "" {
		t.Fatalf("attribute names (-record +attributes):\n%s", diff)
	}
}

func keys[M ~map[string]V, V any](m M) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

func TestSeverity(t *testing.T) {
	t.Parallel()
	no, yes := false, true
	blocked := "blocked"
	tests := []struct {
		r    audit.Record
		want otellog.Severity
	}{
		{audit.Record{ExecutionOutcome: audit.Succeeded}, otellog.SeverityInfo},
		{audit.Record{ExecutionOutcome: audit.NotApplicable}, otellog.SeverityInfo},
		{audit.Record{ExecutionOutcome: audit.Failed}, otellog.SeverityError},
		{audit.Record{LifecycleSuccess: &no, ExecutionOutcome: audit.Unknown}, otellog.SeverityError},
		{audit.Record{ExecutionOutcome: audit.Unknown}, otellog.SeverityWarn},
		{audit.Record{ExecutionOutcome: audit.NotExecuted, ResultStatus: &blocked}, otellog.SeverityWarn},
		{audit.Record{ExecutionOutcome: audit.NotApplicable, PermissionDenied: &yes}, otellog.SeverityWarn},
		{audit.Record{ExecutionOutcome: audit.NotApplicable, PermissionDecision: "deny"}, otellog.SeverityWarn},
	}
	for i, tt := range tests {
		if got := Severity(tt.r); got != tt.want {
			t.Errorf("%d: %v, want %v", i, got, tt.want)
		}
	}
}
