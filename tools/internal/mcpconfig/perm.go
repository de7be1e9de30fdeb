package mcpconfig

// permChecker answers whether a config file may be written by users other than its
// owner (the writable_by_others rule). It looks at metadata only and reports; nothing
// is decided or opened on its answer, so it is not a check before a use. checked is
// false when the metadata could not be read (docs/tools/mcp_audit.md, "Findings": mode
// bits on Unix, the DACL on Windows).
type permChecker interface {
	othersCanWrite(path string, project bool) (writable, checked bool)
}

// defaultPerms is the platform's checker (perm_unix.go, perm_windows.go).
var defaultPerms permChecker = platformPerms{}
