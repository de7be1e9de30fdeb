package runtime

import (
	"context"
	"github.com/windows-dev-agent/wda/tools"
	"time"
)

// CallRecord is what the audit sink learns of one finished tools/call: derived facts
// only. Args are deliberately absent; Result is the structured output, for deriving
// status and outcome, never for storing.
type CallRecord struct {
	Tool      string
	Class     tools.Class
	Host      string
	SessionID string
	DataDir   string
	Started   time.Time
	Duration  time.Duration
	// Execute reports whether the arguments asked for execution (execute:true).
	Execute bool
	// Result is the structured tool result (nil when the call ended in a protocol error).
	Result map[string]any
	// ProtocolError is set when the call was answered with a JSON-RPC error.
	ProtocolError bool
}

// AuditSink receives every finished call. It must not fail the call: errors are its
// own to swallow.
type AuditSink interface {
	RecordCall(ctx context.Context, rec CallRecord)
}
