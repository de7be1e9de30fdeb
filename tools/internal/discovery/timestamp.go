package discovery

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/windows-dev-agent/wda/schema"
)

// timestampLayout is RFC 3339 with exactly microseconds (docs/discovery.md, "Snapshot"):
// finer precision, such as PowerShell's seven fractional digits, is cut.
const timestampLayout = "2006-01-02T15:04:05.000000Z07:00"

// Timestamp is the snapshot time. It parses RFC 3339 with any fractional precision
// (a Z suffix or an offset), truncates to microseconds and keeps the offset, so a
// parse followed by a format is lossless.
type Timestamp struct{ time.Time }

// NewTimestamp truncates t to microseconds.
func NewTimestamp(t time.Time) Timestamp { return Timestamp{t.Truncate(time.Microsecond)} }

// String formats the timestamp in the wire layout.
func (t Timestamp) String() string { return t.Format(timestampLayout) }

// MarshalJSON emits the wire layout.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return nil, fmt.Errorf("snapshot timestamp is not set")
	}
	return json.Marshal(t.String())
}

// UnmarshalJSON accepts RFC 3339 with any precision.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("timestamp must be an RFC 3339 string: %w", err)
	}
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("timestamp must be an RFC 3339 string: %w", err)
	}
	*t = NewTimestamp(v)
	return nil
}

// JSONSchema describes the wire form for the tool's output schema.
func (Timestamp) JSONSchema() *schema.Schema {
	return &schema.Schema{Type: "string", Format: "date-time"}
}
