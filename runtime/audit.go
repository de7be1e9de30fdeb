package runtime

import (
	"context"
	"errors"
	"log/slog"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// auditLog is the default sink: the JSON-lines audit log in the call's data dir.
type auditLog struct{ logger *slog.Logger }

func (a auditLog) RecordCall(_ context.Context, rec CallRecord) {
	if rec.DataDir == "" {
		return
	}
	r := audit.FromCall(audit.Call{Tool: rec.Tool, Class: string(rec.Class), Host: rec.Host, SessionID: rec.SessionID, Caller: rec.Caller,
		Duration: rec.Duration, Execute: rec.Execute, PlanFirst: rec.PlanFirst, MayStartProcess: rec.MayStartProcess,
		Statuses: rec.Statuses, Result: rec.Result, ProtocolError: rec.ProtocolError,
		Capability: rec.Capability, PackageID: rec.PackageID, RefusalField: rec.RefusalField, RefusalRule: rec.RefusalRule})
	switch err := audit.Append(rec.DataDir, r); {
	case errors.Is(err, audit.ErrNotYetWritten):
		a.logger.Warn("windows-dev-agent: audit record queued, not yet written", "tool", rec.Tool, "err", err)
	case err != nil:
		a.logger.Warn("windows-dev-agent: audit record not written", "tool", rec.Tool, "err", err)
	}
}
