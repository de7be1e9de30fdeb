package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/windows-dev-agent/wda/tools"
)

// Segment is a retained segment held open for reading: the file and its size when the
// snapshot was taken. Everything before Size was written before that moment and is never
// rewritten; bytes after it may be a record still being written.
type Segment struct {
	File *os.File
	Size int64
}

// OpenRetained opens the retained segments as one consistent moment of the log, oldest
// first, as Read does (docs/audit.md, "Reading"), and leaves reading them to the caller,
// who closes every File. The audit export (docs/telemetry.md) reads from a saved
// position with it. A data directory with nothing readable gives no segments.
func OpenRetained(dataDir string) ([]Segment, error) {
	held, err := retainedSnapshot(dataDir, openRead)
	if err != nil {
		return nil, err
	}
	out := make([]Segment, len(held))
	for i, h := range held {
		out[i] = Segment{File: h.f, Size: h.info.Size()}
	}
	return out, nil
}

// ShipLockName and CursorName are the audit export's files in the data directory
// (docs/telemetry.md, "Durability"): the lock one exporting process holds, and the
// position up to which the collector has acknowledged the log.
const (
	ShipLockName = LogName + ".export.lock"
	CursorName   = LogName + ".export.cursor"
)

// ShipPaths returns the export lock and cursor paths of dataDir.
func ShipPaths(dataDir string) (lock, cursor string) {
	return filepath.Join(dataDir, ShipLockName), filepath.Join(dataDir, CursorName)
}

// ParseRecord decodes one line of the log into a Record holding only what Append would
// have kept: fields the type does not have are dropped (a legacy line's arguments
// included), identifiers that do not have an identifier's shape are cleared, and enum
// fields outside their closed sets are cleared. ok is false for a line that is not a JSON
// object. The audit export sends what it returns (docs/telemetry.md, "What is sent").
func ParseRecord(line []byte) (r Record, ok bool) {
	if decodeLine(line) == nil || json.Unmarshal(line, &r) != nil {
		// Not a JSON object, or a field of the wrong JSON type: nothing Append wrote.
		return Record{}, false
	}
	ts, version := r.TS, r.SchemaVersion
	r = r.normalize(time.Time{})
	r.TS, r.SchemaVersion = ts, version
	switch r.ExecutionOutcome {
	case Succeeded, Failed, Unknown, NotExecuted, NotApplicable:
	default:
		r.ExecutionOutcome = ""
	}
	switch r.PermissionDecision {
	case DecisionAllow, DecisionDeny, DecisionAsk, DecisionHostDefault:
	default:
		r.PermissionDecision = ""
	}
	if r.ResultStatus != nil && !isStatusWord(*r.ResultStatus) {
		r.ResultStatus = nil
	}
	if _, known := tools.ParseClass(r.SafetyClass); !known {
		r.SafetyClass = ""
	}
	r.LifecycleEvent, r.Event = identifier(r.LifecycleEvent), identifier(r.Event)
	r.Host = identifier(r.Host)
	if _, err := time.Parse(time.RFC3339Nano, r.TS); err != nil {
		r.TS = ""
	}
	return r, true
}
