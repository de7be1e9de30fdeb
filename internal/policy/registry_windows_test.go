package policy

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/windows/registry"
)

// scratchKey creates HKCU\Software\WDATest\<random> and removes it after the test.
func scratchKey(t *testing.T) (registry.Key, Key) {
	t.Helper()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	path := `Software\WDATest\` + hex.EncodeToString(b)
	k, _, err := registry.CreateKey(registry.CURRENT_USER, path, registry.ALL_ACCESS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, sub := range subkeyNames() {
			_ = registry.DeleteKey(k, sub)
		}
		_ = k.Close()
		_ = registry.DeleteKey(registry.CURRENT_USER, path)
	})
	return k, Key{"HKCU", path}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWindowsRegistry writes a policy as Group Policy would (the document value and
// per-setting values, lists in subkeys) into a scratch key and reads it back through
// the real registry (Wine's under .ci/wine-test.sh).
func TestWindowsRegistry(t *testing.T) {
	k, key := scratchKey(t)
	must(t, k.SetStringValue("Policy", `{"disabled_tools": ["sandbox_run"], "packages": {"allow_uninstall": false}}`))
	must(t, k.SetStringValue("MaxExecuteClass", "reversible"))
	must(t, k.SetDWordValue("RefuseExtraArgs", 1))
	list, _, err := registry.CreateKey(k, "DeniedCapabilities", registry.ALL_ACCESS)
	must(t, err)
	must(t, list.SetStringValue("1", "git.push"))
	must(t, list.SetStringValue("2", "npm:deploy"))
	_ = list.Close()

	st := Load(Sources{Registry: WindowsRegistry{}, Machine: key, File: `C:\nonexistent\policy.json`})
	if st.Err != nil {
		t.Fatal(st.Err)
	}
	f := false
	want := &Policy{DisabledTools: []string{"sandbox_run"}, DeniedCapabilities: []string{"git.push", "npm:deploy"},
		MaxExecuteClass: "reversible", RefuseExtraArgs: true, Packages: Packages{AllowUninstall: &f}}
	if d := cmp.Diff(want, st.Policy); d != "" {
		t.Errorf("policy (-want +got):\n%s", d)
	}
	if st.Source != `HKCU\`+key.Path {
		t.Errorf("Source = %q", st.Source)
	}
}

// TestWindowsRegistryBroken: a document value that does not parse names the key, the
// value, the line and the column.
func TestWindowsRegistryBroken(t *testing.T) {
	k, key := scratchKey(t)
	must(t, k.SetStringValue("Policy", "{\n  \"refuse_extra_args\": 1\n}"))
	st := Load(Sources{Registry: WindowsRegistry{}, Machine: key})
	want := `HKCU\` + key.Path + ` value Policy: line 2, column 24: refuse_extra_args must be true or false`
	if st.Err == nil || st.Err.Error() != want {
		t.Errorf("Err = %v\nwant %s", st.Err, want)
	}
}

// TestWindowsRegistryAbsent: a key that does not exist, or exists empty, is no source.
func TestWindowsRegistryAbsent(t *testing.T) {
	_, key := scratchKey(t)
	if st := Load(Sources{Registry: WindowsRegistry{}, Machine: key}); st.InForce() {
		t.Errorf("an empty key is a source: %+v", st)
	}
	if st := Load(Sources{Registry: WindowsRegistry{}, Machine: Key{"HKCU", key.Path + `\absent`}}); st.InForce() {
		t.Errorf("an absent key is a source: %+v", st)
	}
}

// TestSystemIgnoresEnvironment: the machine file's folder is the ProgramData known
// folder, not the ProgramData variable a user can point anywhere (docs/policy.md,
// "Sources").
func TestSystemIgnoresEnvironment(t *testing.T) {
	want := System()
	t.Setenv("ProgramData", `C:\Users\Public\elsewhere`)
	t.Setenv("ALLUSERSPROFILE", `C:\Users\Public\elsewhere`)
	got := System()
	if got.File != want.File || strings.Contains(got.File, "elsewhere") {
		t.Errorf("System().File = %q with ProgramData changed, want %q", got.File, want.File)
	}
	if got.Machine != (Key{"HKLM", RegistryPath}) || got.User != (Key{"HKCU", RegistryPath}) {
		t.Errorf("registry sources %v %v", got.Machine, got.User)
	}
	if !strings.HasSuffix(got.File, `\WindowsDevAgent\policy.json`) {
		t.Errorf("System().File = %q", got.File)
	}
	t.Logf("machine file: %s", got.File)
}
