package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// TestE2EAuditExport: `wda mcp` with OTEL_EXPORTER_OTLP_ENDPOINT ships a hook's record
// and its own calls' records to an OTLP receiver built from the collector's pdata
// module, the last ones in its bounded last pass at exit (docs/telemetry.md), and no
// argument reaches it.
func TestE2EAuditExport(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-e2e-5d1a"
	var mu sync.Mutex
	var bodies [][]byte
	type rec struct{ event, tool, severity, service string }
	var got []rec
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		req := plogotlp.NewExportRequest()
		if err := req.UnmarshalProto(b); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		bodies = append(bodies, b)
		rls := req.Logs().ResourceLogs()
		for i := range rls.Len() {
			svc, _ := rls.At(i).Resource().Attributes().Get("service.name")
			sls := rls.At(i).ScopeLogs()
			for j := range sls.Len() {
				lrs := sls.At(j).LogRecords()
				for k := range lrs.Len() {
					a := lrs.At(k).Attributes()
					ev, _ := a.Get("lifecycle_event")
					tool, _ := a.Get("tool_name")
					got = append(got, rec{ev.Str(), tool.Str(), lrs.At(k).SeverityText(), svc.Str()})
				}
			}
		}
		resp, _ := plogotlp.NewExportResponse().MarshalProto()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(resp)
	}))
	defer srv.Close()
	dir := t.TempDir()
	if err := audit.Append(dir, audit.Record{LifecycleEvent: audit.EventPreToolUse, ExecutionOutcome: audit.NotApplicable,
		ToolName: "Bash", SessionID: "hook-1", PermissionDecision: audit.DecisionDeny, PermissionDenied: new(true)}); err != nil {
		t.Fatal(err)
	}
	cs := startServer(t, "", "WINDOWS_DEV_AGENT_DATA_DIR="+dir, "OTEL_EXPORTER_OTLP_ENDPOINT="+srv.URL)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"capability_run", map[string]any{"capability": "no.such.x", "extra": secret}},
		{"workflow_plan", map[string]any{"goal": "publish " + secret}},
	} {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args}); err != nil {
			t.Fatal(err)
		}
	}
	// Closing waits for the server to exit, which waits for the export's last pass.
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []rec{{"PreToolUse", "Bash", "WARN", "wda"}, {"tools/call", "capability_run", "WARN", "wda"}, {"tools/call", "workflow_plan", "", "wda"}}
	if len(got) != len(want) {
		t.Fatalf("received %+v, want %d records", got, len(want))
	}
	for i := range want {
		if want[i].severity == "" {
			want[i].severity = got[i].severity // depends on the plan's status
		}
		if got[i] != want[i] {
			t.Errorf("record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, b := range bodies {
		if strings.Contains(string(b), secret) {
			t.Fatal("an argument reached the collector")
		}
	}
}
