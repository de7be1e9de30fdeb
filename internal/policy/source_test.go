package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func writeFile(t *testing.T, doc string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	machine = Key{"HKLM", RegistryPath}
	user    = Key{"HKCU", RegistryPath}
)

func docKey(doc string) KeyValues {
	return KeyValues{Values: []Value{{Name: "Policy", Type: String, String: doc}}}
}

// TestLoadPrecedence: the first source that exists is the policy, wholesale; the
// user's key counts only when neither machine source exists.
func TestLoadPrecedence(t *testing.T) {
	file := writeFile(t, `{"project_tasks": "ask"}`)
	missing := filepath.Join(t.TempDir(), "absent.json")
	reg := MapRegistry{
		machine.String(): docKey(`{"project_tasks": "deny"}`),
		user.String():    docKey(`{"project_tasks": "allow"}`),
	}
	onlyUser := MapRegistry{user.String(): reg[user.String()]}
	emptyMachine := MapRegistry{machine.String(): {}, user.String(): reg[user.String()]}
	for _, tc := range []struct {
		name       string
		src        Sources
		wantSource string
		wantTasks  string
	}{
		{"machine key wins", Sources{Registry: reg, Machine: machine, User: user, File: file}, machine.String(), "deny"},
		{"file before user key", Sources{Registry: onlyUser, Machine: machine, User: user, File: file}, file, "ask"},
		{"user key last", Sources{Registry: onlyUser, Machine: machine, User: user, File: missing}, user.String(), "allow"},
		{"an empty key does not exist", Sources{Registry: emptyMachine, Machine: machine, User: user, File: missing}, user.String(), "allow"},
		{"file only (Linux, macOS)", Sources{File: file}, file, "ask"},
		{"none", Sources{Registry: MapRegistry{}, Machine: machine, User: user, File: missing}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.src.Hash = hash
			st := Load(tc.src)
			if st.Err != nil {
				t.Fatal(st.Err)
			}
			if st.Source != tc.wantSource {
				t.Errorf("Source = %q, want %q", st.Source, tc.wantSource)
			}
			got := ""
			if st.Policy != nil {
				got = st.Policy.ProjectTasks
			}
			if got != tc.wantTasks {
				t.Errorf("project_tasks = %q, want %q", got, tc.wantTasks)
			}
			if (tc.wantSource == "") != (st.SHA256 == "") {
				t.Errorf("SHA256 = %q for source %q", st.SHA256, st.Source)
			}
		})
	}
}

func TestLoadFileHash(t *testing.T) {
	doc := `{"refuse_extra_args": true}`
	st := Load(Sources{File: writeFile(t, doc), Hash: hash})
	if want := hash([]byte(doc)); st.SHA256 != want {
		t.Errorf("SHA256 = %s, want %s (sha256 of the file's bytes)", st.SHA256, want)
	}
	// The registry document of the same bytes hashes the same.
	st = Load(Sources{Registry: MapRegistry{machine.String(): docKey(doc)}, Machine: machine, Hash: hash})
	if want := hash([]byte(doc)); st.SHA256 != want {
		t.Errorf("registry SHA256 = %s, want %s", st.SHA256, want)
	}
}

// TestLoadBroken: a source that exists but does not parse is the policy (fail
// closed), named with the line and column; a weaker source never stands in for it.
func TestLoadBroken(t *testing.T) {
	bad := "{\n  \"max_execute_class\": \"read-only\",\n  \"bogus\": 1\n}"
	file := writeFile(t, bad)
	reg := MapRegistry{user.String(): docKey(`{}`)}
	st := Load(Sources{Registry: reg, Machine: machine, User: user, File: file})
	want := file + `: line 3, column 3: unknown key "bogus" (known keys of the policy: disabled_tools, denied_capabilities, allowed_capabilities, max_execute_class, refuse_extra_args, project_tasks, packages, sandbox, audit)`
	if st.Err == nil || st.Err.Error() != want {
		t.Fatalf("Err = %v\nwant %s", st.Err, want)
	}
	if st.Source != file || st.Policy != nil {
		t.Errorf("State = %+v", st)
	}

	st = Load(Sources{Registry: MapRegistry{machine.String(): docKey(bad)}, Machine: machine})
	want = `HKLM\SOFTWARE\Policies\WindowsDevAgent value Policy: line 3, column 3: unknown key "bogus"`
	if st.Err == nil || !strings.HasPrefix(st.Err.Error(), want) {
		t.Fatalf("Err = %v\nwant prefix %s", st.Err, want)
	}

	dir := t.TempDir() // a directory where the file should be
	st = Load(Sources{File: dir})
	if st.Err == nil || st.Source != dir {
		t.Errorf("a directory at the file's place: %+v, want an error", st)
	}
}

// TestRegistryValues: the per-setting values of Group Policy, with the document.
func TestRegistryValues(t *testing.T) {
	kv := KeyValues{
		Values: []Value{
			{Name: "Policy", Type: String, String: `{"disabled_tools": ["tool_discover"]}`},
			{Name: "MaxExecuteClass", Type: String, String: "checkpoint"},
			{Name: "RefuseExtraArgs", Type: DWord, Number: 1},
			{Name: "PackagesAllowUninstall", Type: DWord, Number: 0},
			{Name: "AuditOTLPTimeoutSeconds", Type: DWord, Number: 5},
		},
		Subkeys: map[string][]Value{
			"PackagesAllowedIDs": {{Name: "2", Type: String, String: "Python.Python.3.12"}, {Name: "10", Type: String, String: "Microsoft.VisualStudioCode"}, {Name: "1", Type: String, String: "Git.Git"}},
			"AuditOTLPHeaders":   {{Name: "authorization", Type: String, String: "Bearer x"}},
			"DeniedCapabilities": {}, // an empty subkey sets nothing
		},
	}
	st := Load(Sources{Registry: MapRegistry{machine.String(): kv}, Machine: machine})
	if st.Err != nil {
		t.Fatal(st.Err)
	}
	f := false
	want := &Policy{
		DisabledTools: []string{"tool_discover"}, MaxExecuteClass: "checkpoint", RefuseExtraArgs: true,
		Packages: Packages{AllowedIDs: &[]string{"Git.Git", "Python.Python.3.12", "Microsoft.VisualStudioCode"}, AllowUninstall: &f},
		Audit:    Audit{OTLP: &OTLP{Headers: map[string]string{"authorization": "Bearer x"}, Timeout: 5e9}},
	}
	if d := cmp.Diff(want, st.Policy); d != "" {
		t.Errorf("policy (-want +got):\n%s", d)
	}
}

func TestRegistryErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		kv   KeyValues
		want string
	}{
		{"conflict", KeyValues{Values: []Value{{Name: "Policy", Type: String, String: `{"refuse_extra_args": true}`}, {Name: "RefuseExtraArgs", Type: DWord, Number: 1}}},
			`value RefuseExtraArgs: refuse_extra_args is also set by the Policy document; set it in one place only`},
		{"unknown value", KeyValues{Values: []Value{{Name: "AllowEverything", Type: DWord, Number: 1}}},
			`value AllowEverything: not a Windows Dev Agent policy value`},
		{"document type", KeyValues{Values: []Value{{Name: "Policy", Type: DWord, Number: 1}}},
			`value Policy: must be a string (REG_SZ)`},
		{"bool range", KeyValues{Values: []Value{{Name: "RefuseExtraArgs", Type: DWord, Number: 2}}},
			`value RefuseExtraArgs: refuse_extra_args must be a REG_DWORD 0 or 1`},
		{"enum", KeyValues{Values: []Value{{Name: "ProjectTasks", Type: String, String: "maybe"}}},
			`value ProjectTasks: project_tasks must be a REG_SZ, one of "allow", "ask", "deny"`},
		{"list item", KeyValues{Subkeys: map[string][]Value{"SandboxAllowedRoutes": {{Name: "1", Type: String, String: "host"}}}},
			`value SandboxAllowedRoutes\1: sandbox.allowed_routes: "host" is not one of "wsl", "dev_container", "windows_sandbox"`},
		{"list type", KeyValues{Subkeys: map[string][]Value{"DisabledTools": {{Name: "1", Type: DWord, Number: 1}}}},
			`value DisabledTools\1: disabled_tools must hold REG_SZ values`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := Load(Sources{Registry: MapRegistry{machine.String(): tc.kv}, Machine: machine, Hash: hash})
			want := machine.String() + " " + tc.want
			if st.Err == nil || st.Err.Error() != want {
				t.Errorf("Err = %v\nwant %s", st.Err, want)
			}
			if st.Source != machine.String() || st.SHA256 == "" {
				t.Errorf("a broken key is still the source, hashed: %+v", st)
			}
		})
	}
}
