package mcpconfig

import "testing"

// TestOthersCanWriteACL: the Windows writable_by_others decision over DACL entries, on
// every system (perm_windows_test.go checks it against real files on Windows).
func TestOthersCanWriteACL(t *testing.T) {
	const (
		owner   = "S-1-5-21-1-2-3-1001"
		me      = "S-1-5-21-1-2-3-1002"
		other   = "S-1-5-21-1-2-3-1003"
		full    = 0x1F01FF // FILE_ALL_ACCESS
		modify  = 0x1301BF
		read    = 0x120089 // FILE_GENERIC_READ
		appendD = 0x4
	)
	allow := func(sid string, mask uint32) aceEntry { return aceEntry{Type: aceAccessAllowed, Mask: mask, SID: sid} }
	base := []aceEntry{allow(owner, full), allow("S-1-5-18", full), allow("S-1-5-32-544", full), allow(me, full),
		allow("S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464", full)}
	tests := []struct {
		name string
		null bool
		aces []aceEntry
		want bool
	}{
		{"owner, SYSTEM, Administrators, TrustedInstaller, current user", false, base, false},
		{"NULL DACL", true, nil, true},
		{"empty DACL", false, nil, false},
		{"Everyone full control", false, append(base, allow("S-1-1-0", full)), true},
		{"Authenticated Users modify", false, append(base, allow("S-1-5-11", modify)), true},
		{"BUILTIN\\Users append", false, append(base, allow("S-1-5-32-545", appendD)), true},
		{"BUILTIN\\Users read", false, append(base, allow("S-1-5-32-545", read)), false},
		{"another user GENERIC_WRITE", false, append(base, allow(other, 0x40000000)), true},
		{"another user WRITE_DAC", false, append(base, allow(other, 0x40000)), true},
		{"Everyone write, inherit-only", false, append(base, aceEntry{Type: aceAccessAllowed, Flags: aceInheritOnly, Mask: full, SID: "S-1-1-0"}), false},
		{"Everyone write, denied", false, append(base, aceEntry{Type: 1, Mask: full, SID: "S-1-1-0"}), false},
		{"OWNER RIGHTS full", false, append(base, allow("S-1-3-4", full)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := othersCanWriteACL(tt.null, tt.aces, owner, me); got != tt.want {
				t.Errorf("othersCanWriteACL = %v, want %v", got, tt.want)
			}
		})
	}
}
