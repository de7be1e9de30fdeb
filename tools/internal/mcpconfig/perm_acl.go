package mcpconfig

import "slices"

// aceEntry is one access control entry of a file's DACL as the Windows checker reads it
// (perm_windows.go): kept portable so the decision below is tested on every system.
type aceEntry struct {
	Type, Flags uint8
	Mask        uint32
	SID         string
}

// Access control constants (winnt.h): the entry types and flags, and the rights that
// change a file's content or who may change it.
const (
	aceAccessAllowed = 0x0
	aceInheritOnly   = 0x8
	aclWriteRights   = 0x2 | 0x4 | // FILE_WRITE_DATA, FILE_APPEND_DATA
		0x40000 | 0x80000 | // WRITE_DAC, WRITE_OWNER
		0x40000000 | 0x10000000 // GENERIC_WRITE, GENERIC_ALL
)

// trustedSIDs may write any config: the machine itself and its administrators
// (docs/tools/mcp_audit.md, "Findings"). The file's owner and the current user are
// added per file.
var trustedSIDs = []string{
	"S-1-5-18",     // SYSTEM
	"S-1-5-32-544", // BUILTIN\Administrators
	"S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464", // TrustedInstaller
	"S-1-3-4", // OWNER RIGHTS: whoever owns the file
	"S-1-3-0", // CREATOR OWNER: replaced by the creator when inherited
}

// othersCanWriteACL decides writable_by_others from a DACL: a missing or NULL DACL lets
// everyone in; otherwise an allow entry that applies to the file itself (not inherit-only)
// and grants a write right to a SID other than the trusted ones. Deny entries are not
// subtracted: a grant to others is reported even when a deny entry narrows it.
func othersCanWriteACL(nullDACL bool, aces []aceEntry, trusted ...string) bool {
	if nullDACL {
		return true
	}
	for _, a := range aces {
		if a.Type != aceAccessAllowed || a.Flags&aceInheritOnly != 0 || a.Mask&aclWriteRights == 0 {
			continue
		}
		if !slices.Contains(trustedSIDs, a.SID) && !slices.Contains(trusted, a.SID) {
			return true
		}
	}
	return false
}
