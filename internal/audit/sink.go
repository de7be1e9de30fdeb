package audit

import (
	"context"
	"github.com/windows-dev-agent/wda/runtime"
	"log/slog"

	"github.com/windows-dev-agent/wda/tools"
)

// Sink is the MCP server's runtime.AuditSink: one record per finished tools/call, in
// rec.DataDir. Pass audit.Sink{} as runtime.Options.Audit.
type Sink struct {
	// Logger receives a warning when a record cannot be written; nil means
	// slog.Default() (stderr). The call itself never fails.
	Logger *slog.Logger
}

var _ runtime.AuditSink = Sink{}

// RecordCall derives the record from rec (rec.Result is read in memory only) and
// appends it. Failures are logged and swallowed.
func (s Sink) RecordCall(_ context.Context, rec runtime.CallRecord) {
	if rec.DataDir == "" {
		return
	}
	if err := Append(rec.DataDir, FromCall(rec)); err != nil {
		l := s.Logger
		if l == nil {
			l = slog.Default()
		}
		l.Warn("windows-dev-agent: audit record not written", "tool", rec.Tool, "err", err)
	}
}

// FromCall builds the audit record of a finished server call. A JSON-RPC error has no
// result, so its outcome follows rule 2 (unknown when a process may have started).
func FromCall(rec runtime.CallRecord) Record {
	in := callInput(rec)
	ok := !rec.ProtocolError
	ms := float64(rec.Duration.Microseconds()) / 1000
	return Record{
		LifecycleEvent:   in.Event,
		LifecycleSuccess: &ok,
		ExecutionStarted: ExecutionStarted(in),
		ExecutionOutcome: Outcome(in),
		ResultStatus:     ResultStatus(in),
		SessionID:        rec.SessionID,
		ToolName:         rec.Tool,
		DurationMS:       &ms,
		ErrorPresent:     new(rec.ProtocolError || Truthy(rec.Result["error"])),
		SafetyClass:      string(rec.Class),
		Host:             rec.Host,
	}
}

// callInput reconstructs the facts of a server call. The gate has applied schema
// defaults, so an execution-capable tool always had an execute key, whose value is
// rec.Execute; ecosystem_scan's include_host is read back from its class
// (approval-required iff include_host).
//
// LEAD: the tool names here and in MayStartProcess are what the registry's
// declarations (execute switch, may-start-process rule, status vocabulary) replace:
// CallRecord can then carry those facts and this becomes a copy.
func callInput(rec runtime.CallRecord) OutcomeInput {
	input := map[string]any{}
	switch ShortName(rec.Tool) {
	case "capability_run", "package_install", "sandbox_run":
		input["execute"] = rec.Execute
	case "ecosystem_scan":
		input["include_host"] = rec.Class == tools.ApprovalRequired
	}
	in := FromToolInput(EventToolCall, rec.Tool, input, rec.Result)
	if rec.ProtocolError {
		in.Result = nil
	}
	return in
}
