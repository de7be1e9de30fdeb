package discovery

import "time"

// UnknownOSName is the os_name of a snapshot whose system block was not established.
const UnknownOSName = "Unknown"

// Fallback is the hard-failure snapshot of docs/discovery.md, "Fallback snapshot": the
// full shape with success false, the reason as its only error, every tri-state null,
// every state string "unknown", every list empty and dev_drives null.
func Fallback(now time.Time, reason string) Snapshot {
	s := blank()
	s.Timestamp = NewTimestamp(now)
	s.Success = false
	s.Errors = []string{reason}
	return s
}
