package runtime

import (
	"context"
	"log/slog"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// auditLog is the default sink: the JSON-lines audit log in the call's data dir.
type auditLog struct{ logger *slog.Logger }

func (a auditLog) RecordCall(_ context.Context, rec CallRecord) {
	if rec.DataDir == "" {
		return
	}
	r := audit.FromCall(audit.Call{Tool: rec.Tool, Class: string(rec.Class), Host: rec.Host, SessionID: rec.SessionID,
		Duration: rec.Duration, Execute: rec.Execute, PlanFirst: rec.PlanFirst, MayStartProcess: rec.MayStartProcess,
		Statuses: rec.Statuses, Result: rec.Result, ProtocolError: rec.ProtocolError})
	if err := audit.Append(rec.DataDir, r); err != nil {
		a.logger.Warn("windows-dev-agent: audit record not written", "tool", rec.Tool, "err", err)
	}
}
