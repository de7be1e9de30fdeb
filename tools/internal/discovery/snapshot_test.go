package discovery

import (
	"bytes"
	"encoding/json"
	"flag"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

var t0 = time.Date(2026, 11, 29, 10, 30, 0, 123456000, time.FixedZone("", 3600))

// fullSnapshot has every kind of value: true, false, null, strings, lists, drives.
func fullSnapshot() Snapshot {
	ubuntu := "Ubuntu"
	fs := []Facts{{
		System: &System{OSName: "Microsoft Windows 11 Pro", OSVersion: "10.0.22631", OSBuild: "22631",
			Architecture: "64-bit", LogicalProcessors: 16, ProcessorPackages: 1, ProcessorName: "Example CPU", TotalPhysicalMemoryGB: 31.75},
		Features: &Features{HyperV: "Enabled", Sandbox: "DisabledWithPayloadRemoved", WSL: ""},
		WSL: &WSLFacts{Exe: T, StoreService: T, InboxService: F, AllowWSL: allowed(), AllowInbox: allowed(), AllowWSL1: allowed(),
			Inventory: Inventory{Established: true, Distros: []string{"Ubuntu", "Debian"}, Default: ubuntu, DefaultVersion: 2}},
		DevDrive: &DevDriveFacts{InventoryState: StateAvailable, Drives: []DevDrive{{DriveLetter: "D", Label: "Dev", SizeGB: 100, FreeSpaceGB: 42.5}},
			Enabled: T, State: "enabled"},
		Tools: &ToolFacts{
			Tools: DevelopmentTools{WingetAvailable: T, ChocolateyAvailable: F, ScoopAvailable: N, GitAvailable: T,
				DockerInstalled: T, DockerRunning: F, VSCodeAvailable: T, VisualStudioAvailable: N},
			Runtimes: Runtimes{Python: Runtime{Available: T}, Node: Runtime{Available: F}, Rust: Runtime{}, Golang: Runtime{Available: T}, Dotnet: Runtime{Available: F}},
			Git:      Git{Available: T},
			Editors:  Editors{VisualStudioCode: T, VisualStudio: N, JetBrainsRider: F, JetBrainsPyCharm: T, JetBrainsCLion: F},
		},
		Errors: []string{"Optional feature 'Microsoft-Windows-Subsystem-Linux' was not established: Access denied"},
	}}
	s, _ := Assemble(t0, fs...)
	return s
}

func TestSnapshotGolden(t *testing.T) {
	b, err := json.MarshalIndent(fullSnapshot(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, filepath.Join("testdata", "snapshot.golden.json"), append(b, '\n'), *update)
}

func TestRoundTripIsLossless(t *testing.T) {
	for name, s := range map[string]Snapshot{"full": fullSnapshot(), "fallback": Fallback(t0, "boom")} {
		t.Run(name, func(t *testing.T) {
			b1, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse(b1)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(s, back); diff != "" {
				t.Fatalf("struct round trip (-want +got):\n%s", diff)
			}
			b2, _ := json.Marshal(back)
			if !bytes.Equal(b1, b2) {
				t.Fatalf("re-serialization differs:\n%s\n%s", b1, b2)
			}
		})
	}
}

func TestGoldenParsesBackIdentically(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "snapshot.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	if diff := cmp.Diff(string(bytes.TrimSpace(raw)), string(b)); diff != "" {
		t.Fatalf("golden → parse → marshal (-want +got):\n%s", diff)
	}
}

// keys walks a JSON value and returns every object key path ("a.b").
func keys(v any, prefix string, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			out[prefix+k] = true
			keys(c, prefix+k+".", out)
		}
	case []any:
		for _, c := range x {
			keys(c, prefix, out)
		}
	}
}

func jsonKeys(t *testing.T, s Snapshot) map[string]bool {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	keys(v, "", out)
	return out
}

// canonicalKeys is every key path of docs/discovery.md, "Snapshot".
var canonicalKeys = strings.Fields(`schema_version timestamp success errors system system.os_name system.os_version
system.os_build system.architecture system.logical_processors system.processor_packages system.processor_name system.total_physical_memory_gb
virtualization virtualization.hyper_v_available virtualization.hyper_v_state virtualization.wsl_installed
virtualization.wsl_available virtualization.wsl_default_distro virtualization.wsl_version virtualization.wsl_distros
virtualization.windows_sandbox_available virtualization.windows_sandbox_state virtualization.dev_drive_inventory_state
virtualization.dev_drive_enabled virtualization.dev_drive_state virtualization.dev_drives
development_tools development_tools.winget_available development_tools.chocolatey_available
development_tools.scoop_available development_tools.git_available development_tools.docker_installed development_tools.docker_running
development_tools.vscode_available development_tools.visual_studio_available runtimes
runtimes.python runtimes.python.available runtimes.python.version runtimes.python.versions
runtimes.node runtimes.node.available runtimes.node.version runtimes.node.versions
runtimes.rust runtimes.rust.available runtimes.rust.version runtimes.rust.versions
runtimes.golang runtimes.golang.available runtimes.golang.version runtimes.golang.versions
runtimes.dotnet runtimes.dotnet.available runtimes.dotnet.version runtimes.dotnet.versions
git git.available git.version editors editors.visual_studio_code editors.visual_studio editors.jetbrains_rider
editors.jetbrains_pycharm editors.jetbrains_clion probe_states probe_states.hyper_v probe_states.wsl
probe_states.windows_sandbox probe_states.dev_drive probe_states.winget probe_states.git
available_package_managers available_runtimes available_editors available_isolation_options`)

func TestEverySnapshotHasExactlyTheCanonicalKeys(t *testing.T) {
	// docs/discovery.md, "Fallback snapshot" and "Never collected": the fallback, a
	// healthy and an empty-facts snapshot all carry every key, and nothing else (no
	// username, domain, git identity, module inventory, computer name, locale, PATH...).
	empty, _ := Assemble(t0)
	want := map[string]bool{}
	for _, k := range canonicalKeys {
		want[k] = true
	}
	drive := map[string]bool{"virtualization.dev_drives.drive_letter": true, "virtualization.dev_drives.label": true,
		"virtualization.dev_drives.size_gb": true, "virtualization.dev_drives.free_space_gb": true}
	for name, s := range map[string]Snapshot{"fallback": Fallback(t0, "x"), "full": fullSnapshot(), "empty": empty} {
		got := jsonKeys(t, s)
		for k := range drive {
			delete(got, k)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: key set (-want +got):\n%s", name, diff)
		}
	}
}

func TestPrivacyKeysNeverAppear(t *testing.T) {
	forbidden := []string{"system.username", "system.domain", "computer_name", "system.computer_name", "system_root",
		"system.system_root", "system.install_date", "system.locale", "system.timezone", "git.user_name", "git.user_email",
		"git.configured", "powershell_modules", "path", "environment"}
	// A producer or an old cache that still carries them must not make them reappear.
	legacy := `{"timestamp":"2026-11-29T10:30:00Z","success":true,"errors":[],"computer_name":"HOST",
		"system":{"os_name":"Microsoft Windows 11 Pro","username":"alice","domain":"CORP","locale":"en-US","timezone":"UTC","install_date":"x","system_root":"C:\\Windows"},
		"git":{"available":true,"version":null,"user_name":"Alice","user_email":"a@example.com","configured":true},
		"powershell_modules":[{"name":"Evil"}]}`
	parsed, err := Parse([]byte(legacy))
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]Snapshot{"fallback": Fallback(t0, "x"), "full": fullSnapshot(), "legacy": parsed} {
		got := jsonKeys(t, s)
		for _, k := range forbidden {
			if got[k] {
				t.Errorf("%s: forbidden key %q present", name, k)
			}
		}
		b, _ := json.Marshal(s)
		for _, secret := range []string{"alice", "CORP", "a@example.com", "Evil"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s: value %q leaked into %s", name, secret, b)
			}
		}
	}
}

func TestParseToleratesUnknownAndDefaultsMissing(t *testing.T) {
	in := `{"timestamp":"2026-11-29T10:30:00.1234567+01:00","future_key":{"x":1},
		"virtualization":{"hyper_v_available":false,"hyper_v_state":"Disabled","brand_new":true},
		"probe_states":{"hyper_v":"available"},"available_isolation_options":["dev-drive"]}`
	s, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if s.Success {
		t.Error("missing success must parse as false")
	}
	if s.Timestamp.String() != "2026-11-29T10:30:00.123456+01:00" {
		t.Errorf("timestamp = %s, want microseconds with the offset kept", s.Timestamp)
	}
	if !IsFalse(s.Virtualization.HyperVAvailable) || s.Virtualization.WindowsSandboxAvailable != nil {
		t.Errorf("tri-states: hyper_v=%s sandbox=%s", tri(s.Virtualization.HyperVAvailable), tri(s.Virtualization.WindowsSandboxAvailable))
	}
	if s.Virtualization.WindowsSandboxState != StateUnknown || s.System.OSName != UnknownOSName || s.Virtualization.DevDrives != nil {
		t.Errorf("missing keys must take the unknown defaults: %+v %+v", s.Virtualization, s.System)
	}
	d := s.Derived()
	// Derived keys are recomputed, never parsed back.
	if d.ProbeStates.HyperV != StateMissing || len(d.AvailableIsolationOptions) != 0 {
		t.Errorf("derived keys were parsed back: %+v %v", d.ProbeStates, d.AvailableIsolationOptions)
	}
	for _, bad := range []string{`{}`, `{"timestamp":"yesterday"}`, `{"timestamp":"2026-11-29T10:30:00Z","success":"yes"}`, `[]`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) succeeded, want an error", bad)
		}
	}
	if _, err := Parse([]byte(`{"timestamp":"2026-11-29T10:30:00Z"}`)); err != nil {
		t.Errorf("Z suffix: %v", err)
	}
}

func TestProbeStateMapping(t *testing.T) {
	for _, c := range []struct {
		in   *bool
		want string
	}{{T, "available"}, {F, "missing"}, {N, "unknown"}} {
		if got := ProbeState(c.in); got != c.want {
			t.Errorf("ProbeState(%s) = %s, want %s", tri(c.in), got, c.want)
		}
	}
}

func TestNullFeatureIsNotMissing(t *testing.T) {
	s, _ := Assemble(t0, Facts{Features: &Features{HyperV: "", Sandbox: "Disabled", WSL: ""}})
	d := s.Derived()
	if d.ProbeStates.HyperV != StateUnknown || d.ProbeStates.WindowsSandbox != StateMissing {
		t.Fatalf("probe states %+v", d.ProbeStates)
	}
	v := s.Virtualization
	if v.HasHyperV() || v.HasWindowsSandbox() || v.HasWSL() || v.HasDevDrive() {
		t.Fatal("has_* helpers must be false for null and false")
	}
	if v.HyperVState != StateUnknown || v.WindowsSandboxState != "Disabled" {
		t.Fatalf("states %q %q", v.HyperVState, v.WindowsSandboxState)
	}
}

func TestDerivedLists(t *testing.T) {
	d := fullSnapshot().Derived()
	want := map[string][]string{
		"package_managers": {"winget"},
		"runtimes":         {"python", "golang"},
		"editors":          {"vscode", "pycharm"},
		"isolation":        {"hyper-v", "wsl"},
	}
	got := map[string][]string{"package_managers": d.AvailablePackageManagers, "runtimes": d.AvailableRuntimes,
		"editors": d.AvailableEditors, "isolation": d.AvailableIsolationOptions}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("derived lists (-want +got):\n%s", diff)
	}
	if d.ProbeStates != (ProbeStates{HyperV: "available", WSL: "available", WindowsSandbox: "missing", DevDrive: "available", Winget: "available", Git: "available"}) {
		t.Fatalf("probe states %+v", d.ProbeStates)
	}
}

func TestDevDriveIsNeverAnIsolationOption(t *testing.T) {
	s, _ := Assemble(t0, Facts{DevDrive: &DevDriveFacts{InventoryState: StateAvailable, Enabled: T, State: "enabled",
		Drives: []DevDrive{{DriveLetter: "D", SizeGB: 10}}}})
	for _, o := range s.Derived().AvailableIsolationOptions {
		if strings.Contains(strings.ToLower(o), "dev") {
			t.Fatalf("isolation options %v contain a Dev Drive", s.Derived().AvailableIsolationOptions)
		}
	}
}

func TestWSLIsolationFollowsWSLAvailable(t *testing.T) {
	// Installed but no default distro: probe_states.wsl is available, yet WSL is not
	// an isolation option (deliberate deviation, doc.go).
	s, _ := Assemble(t0, Facts{WSL: &WSLFacts{Exe: T, StoreService: T, InboxService: F, AllowWSL: allowed(), AllowInbox: allowed(), AllowWSL1: allowed(), Inventory: inv("", 0)}})
	d := s.Derived()
	if d.ProbeStates.WSL != StateAvailable || len(d.AvailableIsolationOptions) != 0 || !IsFalse(s.Virtualization.WSLAvailable) {
		t.Fatalf("probe wsl=%s isolation=%v wsl_available=%s", d.ProbeStates.WSL, d.AvailableIsolationOptions, tri(s.Virtualization.WSLAvailable))
	}
}

func TestWindowsVersionHelpers(t *testing.T) {
	cases := []struct {
		name, build string
		is11, is10  bool
	}{
		{"Microsoft Windows 11 Pro", "22631", true, false},
		{"Microsoft Windows 10 Pro", "22631", true, true}, // registry ProductName on 11
		{"Microsoft Windows 10 Pro", "19045", false, true},
		{"Microsoft Windows 10 Pro", "", false, true},
		{"Microsoft Windows 10 Pro", "abc", false, true},
		{"Unknown", " 22000 ", true, false},
		{"Unknown", "21999", false, false},
	}
	for _, c := range cases {
		s := System{OSName: c.name, OSBuild: c.build}
		if s.IsWindows11() != c.is11 || s.IsWindows10() != c.is10 {
			t.Errorf("%q/%q: is11=%v is10=%v, want %v %v", c.name, c.build, s.IsWindows11(), s.IsWindows10(), c.is11, c.is10)
		}
	}
}

func TestUsagePercent(t *testing.T) {
	if p := (DevDrive{SizeGB: 200, FreeSpaceGB: 50}).UsagePercent(); p != 75 {
		t.Errorf("usage = %v", p)
	}
	if p := (DevDrive{}).UsagePercent(); p != 0 {
		t.Errorf("zero size usage = %v", p)
	}
}

func TestFallbackShape(t *testing.T) {
	s := Fallback(t0, "Unexpected discovery failure: boom")
	d := s.Derived()
	if s.Success || len(s.Errors) != 1 || s.System.OSName != "Unknown" || s.Virtualization.DevDrives != nil {
		t.Fatalf("fallback %+v", s)
	}
	if d.ProbeStates != (ProbeStates{"unknown", "unknown", "unknown", "unknown", "unknown", "unknown"}) {
		t.Fatalf("probe states %+v", d.ProbeStates)
	}
	b, _ := json.Marshal(s)
	if bytes.Contains(b, []byte(":false")) && !bytes.Contains(b, []byte(`"success":false`)) {
		t.Fatalf("a fallback fact was collapsed to false: %s", b)
	}
	if n := bytes.Count(b, []byte(":false")); n != 1 {
		t.Fatalf("fallback has %d false values, want only success: %s", n, b)
	}
}
