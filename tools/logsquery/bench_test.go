package logsquery

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// BenchmarkQueryFull is logs_query (filter failures, last_n 200) over two full 2 MiB
// segments of realistic trace records, one in ten a failure.
func BenchmarkQueryFull(b *testing.B) {
	dir := b.TempDir()
	var seg bytes.Buffer
	n := 0
	for i := 0; seg.Len() < audit.SegmentLimit; i++ {
		outcome := audit.Succeeded
		if i%10 == 0 {
			outcome = audit.Failed
		}
		line, err := json.Marshal(audit.Record{
			SchemaVersion: 1, TS: "2026-01-02T03:04:05.123456Z", LifecycleEvent: audit.EventPostToolUse, Event: audit.EventPostToolUse,
			LifecycleSuccess: new(true), Success: new(true), ExecutionStarted: new(true), ExecutionOutcome: outcome,
			ResultStatus: new("completed"), SessionID: "0f8e2d4c-6b1a-4e5f-9c3d-2a7b8e9f0a1b",
			ToolName: "mcp__plugin_windows-dev-agent_windows-dev-agent__capability_run", ToolUseID: "toolu_01ABCDEFGHIJKLMNOPQRSTUV",
			DurationMS: new(1234.5), ErrorPresent: new(false),
		})
		if err != nil {
			b.Fatal(err)
		}
		seg.Write(append(line, '\n'))
		n++
	}
	for _, name := range []string{audit.PrevName, audit.LogName} {
		if err := os.WriteFile(filepath.Join(dir, name), seg.Bytes(), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(2 * seg.Len()))
	b.ReportAllocs()
	for b.Loop() {
		out, err := Query(dir, 200, FilterFailures)
		if err != nil || len(out.Events) != 200 || out.Matched < 2*n/10 {
			b.Fatalf("%v: %d events, %d matched", err, len(out.Events), out.Matched)
		}
	}
}
