package remote

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// TestLoadTokenFileDACL: a token file whose DACL lets Everyone read it, or that has a
// NULL DACL, is refused; one readable by the owner only is accepted. Real Windows (and
// Wine, where its security calls behave).
func TestLoadTokenFileDACL(t *testing.T) {
	t.Parallel()
	owner, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	everyone, err := windows.CreateWellKnownSid(windows.WinWorldSid)
	if err != nil {
		t.Fatal(err)
	}
	set := func(t *testing.T, sids ...*windows.SID) string {
		t.Helper()
		p := filepath.Join(t.TempDir(), "tokens")
		if err := os.WriteFile(p, []byte("ci-agent "+tokA+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		var entries []windows.EXPLICIT_ACCESS
		for _, s := range sids {
			entries = append(entries, windows.EXPLICIT_ACCESS{AccessPermissions: windows.GENERIC_READ | windows.GENERIC_WRITE,
				AccessMode: windows.GRANT_ACCESS, Trustee: windows.TRUSTEE{TrusteeForm: windows.TRUSTEE_IS_SID,
					TrusteeValue: windows.TrusteeValueFromSID(s)}})
		}
		acl, err := windows.ACLFromEntries(entries, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := windows.SetNamedSecurityInfo(p, windows.SE_FILE_OBJECT,
			windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, acl, nil); err != nil {
			t.Fatal(err)
		}
		// Wine reports success for SetNamedSecurityInfo without keeping the DACL on
		// its files: check the effect, and skip where it did not happen.
		sd, err := windows.GetNamedSecurityInfo(p, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := sd.DACL(); err != nil || got == nil || int(got.AceCount) != len(sids) {
			if testkit.UnderWine() {
				t.Skipf("Wine did not keep the DACL set on %s", p)
			}
			t.Fatalf("the DACL set on %s did not stick: %v", p, sd)
		}
		return p
	}
	if _, err := LoadTokenFile(set(t, owner.User.Sid)); err != nil {
		t.Errorf("owner only: %v", err)
	}
	if _, err := LoadTokenFile(set(t, owner.User.Sid, everyone)); err == nil || !strings.Contains(err.Error(), "may read it") {
		t.Errorf("Everyone may read: err = %v, want a refusal", err)
	}
}
