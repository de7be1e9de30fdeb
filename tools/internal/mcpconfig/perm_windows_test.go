//go:build windows

package mcpconfig

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/sys/windows"
)

// underWine reports whether the test runs under Wine (ntdll exports wine_get_version).
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

// TestPlatformPermsWindows sets a protected DACL on a real file and checks what
// writable_by_others answers for it: grants to Everyone, Authenticated Users or
// BUILTIN\Users with a write right are found, read grants and the current user's own
// full control are not.
func TestPlatformPermsWindows(t *testing.T) {
	me, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	const (
		full   = windows.ACCESS_MASK(0x1F01FF) // FILE_ALL_ACCESS
		modify = windows.ACCESS_MASK(0x1301BF)
		read   = windows.ACCESS_MASK(0x120089) // FILE_GENERIC_READ
	)
	tests := []struct {
		name  string
		other string // a SID granted mask beside the current user's full control; "" for none
		mask  windows.ACCESS_MASK
		want  bool
	}{
		{"current user only", "", 0, false},
		{"SYSTEM full control", "S-1-5-18", full, false},
		{"Everyone full control", "S-1-1-0", full, true},
		{"Authenticated Users modify", "S-1-5-11", modify, true},
		{"BUILTIN Users write data", "S-1-5-32-545", windows.ACCESS_MASK(0x2), true},
		{"BUILTIN Users read", "S-1-5-32-545", read, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".mcp.json")
			if err := os.WriteFile(path, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			set := map[string]windows.ACCESS_MASK{me.User.Sid.String(): full}
			entries := []windows.EXPLICIT_ACCESS{grant(me.User.Sid, full)}
			if tt.other != "" {
				sid, err := windows.StringToSid(tt.other)
				if err != nil {
					t.Fatal(err)
				}
				set[tt.other] = tt.mask
				entries = append(entries, grant(sid, tt.mask))
			}
			acl, err := windows.ACLFromEntries(entries, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
				windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, acl, nil); err != nil {
				t.Fatal(err)
			}
			// Check the effect, not the return code: the DACL read back must be the one set.
			null, aces, _, err := fileDACL(path, true)
			if err != nil {
				t.Fatal(err)
			}
			if missing := unkept(null, aces, set); missing != "" {
				if underWine() {
					t.Skipf("Wine did not keep the DACL set on the file: %s missing when read back, got %v; real Windows runs this case", missing, aces)
				}
				t.Fatalf("the DACL read back lacks the entry for %s", missing)
			}
			for _, project := range []bool{true, false} {
				got, checked := platformPerms{}.othersCanWrite(path, project)
				if !checked || got != tt.want {
					t.Errorf("othersCanWrite(project=%v) = %v, checked %v; want %v, checked", project, got, checked, tt.want)
				}
			}
		})
	}
	t.Run("directory is not checked", func(t *testing.T) {
		if _, checked := (platformPerms{}).othersCanWrite(t.TempDir(), true); checked {
			t.Error("a directory was checked")
		}
	})
}

func grant(sid *windows.SID, mask windows.ACCESS_MASK) windows.EXPLICIT_ACCESS {
	return windows.EXPLICIT_ACCESS{AccessPermissions: mask, AccessMode: windows.GRANT_ACCESS, Inheritance: windows.NO_INHERITANCE,
		Trustee: windows.TRUSTEE{TrusteeForm: windows.TRUSTEE_IS_SID, TrusteeType: windows.TRUSTEE_IS_UNKNOWN,
			TrusteeValue: windows.TrusteeValueFromSID(sid)}}
}

// unkept names the first entry set that the DACL read back does not grant as set.
func unkept(null bool, aces []aceEntry, set map[string]windows.ACCESS_MASK) string {
	if null {
		return "every entry (NULL DACL)"
	}
	for sid, mask := range set {
		if !slices.ContainsFunc(aces, func(a aceEntry) bool {
			return a.Type == aceAccessAllowed && a.SID == sid && a.Mask&uint32(mask) == uint32(mask)
		}) {
			return sid
		}
	}
	return ""
}
