//go:build windows

package mcpconfig

// platformPerms does not read ACLs yet: mode bits say nothing on Windows, so the
// writable_by_others rule is not checked there (docs/tools/mcp_audit.md, "Findings").
type platformPerms struct{}

func (platformPerms) othersCanWrite(string, bool) (writable, checked bool) { return false, false }
