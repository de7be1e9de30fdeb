package discovery

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// isWine reports whether the test runs under Wine (ntdll exports wine_get_version).
func isWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

// rootedRegistry maps both hives below a private HKCU test key, so the real registry
// API (64-bit view, value types, enumeration) is exercised with planted WSL state.
type rootedRegistry struct{ prefix string }

func (r rootedRegistry) p(root Root, path string) string {
	return r.prefix + `\` + root.String() + `\` + path
}
func (r rootedRegistry) KeyExists(root Root, path string) (bool, error) {
	return winRegistry{}.KeyExists(CurrentUser, r.p(root, path))
}
func (r rootedRegistry) DWORD(root Root, path, name string) (uint32, bool, error) {
	return winRegistry{}.DWORD(CurrentUser, r.p(root, path), name)
}
func (r rootedRegistry) String(root Root, path, name string) (string, bool, error) {
	return winRegistry{}.String(CurrentUser, r.p(root, path), name)
}
func (r rootedRegistry) SubKeys(root Root, path string) ([]string, bool, error) {
	return winRegistry{}.SubKeys(CurrentUser, r.p(root, path))
}

func newRootedRegistry(t *testing.T) rootedRegistry {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	r := rootedRegistry{prefix: `Software\wda-discovery-test-` + hex.EncodeToString(b[:])}
	t.Cleanup(func() { deleteTree(registry.CURRENT_USER, r.prefix) })
	return r
}

func deleteTree(k registry.Key, path string) {
	if sub, err := registry.OpenKey(k, path, registry.ENUMERATE_SUB_KEYS); err == nil {
		names, _ := sub.ReadSubKeyNames(-1)
		sub.Close()
		for _, n := range names {
			deleteTree(k, path+`\`+n)
		}
	}
	registry.DeleteKey(k, path)
}

func (r rootedRegistry) create(t *testing.T, root Root, path string) registry.Key {
	t.Helper()
	k, _, err := registry.CreateKey(registry.CURRENT_USER, r.p(root, path), registry.ALL_ACCESS|registry.WOW64_64KEY)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.Close() })
	return k
}

func TestWinRegistryReadsRealHive(t *testing.T) {
	reg := winRegistry{}
	if ok, err := reg.KeyExists(LocalMachine, keyCurrentVer); !ok || err != nil {
		t.Fatalf("CurrentVersion key: %v %v", ok, err)
	}
	if ok, err := reg.KeyExists(LocalMachine, `SOFTWARE\wda-no-such-key-`+strconv.Itoa(os.Getpid())); ok || err != nil {
		t.Fatalf("missing key: %v %v (want false, nil)", ok, err)
	}
	if v, found, err := reg.String(LocalMachine, keyCurrentVer, "CurrentBuildNumber"); !found || err != nil || v == "" {
		t.Fatalf("CurrentBuildNumber: %q %v %v", v, found, err)
	}
	if _, found, err := reg.DWORD(LocalMachine, keyCurrentVer, "wda-no-such-value"); found || err != nil {
		t.Fatalf("missing value: %v %v", found, err)
	}
	if _, found, err := reg.DWORD(LocalMachine, `SOFTWARE\wda-no-such-key`, "x"); found || err != nil {
		t.Fatalf("value of a missing key: %v %v", found, err)
	}
	if subs, found, err := reg.SubKeys(LocalMachine, `HARDWARE\DESCRIPTION\System\CentralProcessor`); !found || err != nil || len(subs) == 0 {
		t.Fatalf("CentralProcessor subkeys: %v %v %v", subs, found, err)
	}
	// A value of the wrong type is an error (not established), never a silent absence.
	if _, _, err := reg.DWORD(LocalMachine, keyCurrentVer, "CurrentBuildNumber"); err == nil {
		t.Fatal("reading a string as a DWORD must fail")
	}
}

func TestWSLRouteAgainstRealRegistry(t *testing.T) {
	r := newRootedRegistry(t)
	r.create(t, LocalMachine, keyInboxService)
	lxss := r.create(t, CurrentUser, keyLxss)
	d := r.create(t, CurrentUser, keyLxss+`\`+guidA)
	if err := d.SetStringValue("DistributionName", "Ubuntu"); err != nil {
		t.Fatal(err)
	}
	if err := d.SetDWordValue("Version", 1); err != nil {
		t.Fatal(err)
	}
	if err := lxss.SetStringValue("DefaultDistribution", strings.ToLower(guidA)); err != nil {
		t.Fatal(err)
	}
	exe := exeAt(`C:\Windows\System32\wsl.exe`)
	if got := wslRoute(routeDeps{reg: r, wslExe: exe}); !IsTrue(got.Available) || got.DefaultDistribution != "Ubuntu" {
		t.Fatalf("route %+v", got)
	}
	pol := r.create(t, LocalMachine, keyWSLPolicy)
	if err := pol.SetDWordValue("AllowWSL1", 0); err != nil {
		t.Fatal(err)
	}
	if got := wslRoute(routeDeps{reg: r, wslExe: exe}); !IsFalse(got.Available) || !strings.Contains(got.Reason, "WSL 1") {
		t.Fatalf("AllowWSL1=0 route %+v", got)
	}
	if err := pol.SetDWordValue("AllowInboxWSL", 0); err != nil {
		t.Fatal(err)
	}
	if got := wslRoute(routeDeps{reg: r, wslExe: exe}); !IsFalse(got.Available) || !strings.Contains(got.Reason, "Inbox WSL") {
		t.Fatalf("AllowInboxWSL=0 route %+v", got)
	}
	if err := pol.SetStringValue("AllowWSL", "0"); err != nil { // wrong type: not established
		t.Fatal(err)
	}
	if got := wslRoute(routeDeps{reg: r, wslExe: exe}); got.Available != nil {
		t.Fatalf("unreadable AllowWSL route %+v", got)
	}
	facts, errs := readWSLFacts(r, exe)
	if facts.AllowWSL.Established || len(errs) != 1 || !strings.Contains(errs[0], "AllowWSL") {
		t.Fatalf("facts %+v errors %q", facts, errs)
	}
	if !facts.Inventory.Established || facts.Inventory.Default != "Ubuntu" || facts.Inventory.DefaultVersion != 1 {
		t.Fatalf("inventory %+v", facts.Inventory)
	}
}

func TestWSLRouteOnThisMachine(t *testing.T) {
	r := WSLRoute()
	if r.Reason == "" {
		t.Fatalf("route without a reason: %+v", r)
	}
	if IsTrue(r.Available) && r.DefaultDistribution == "" {
		t.Fatalf("available without a default distribution: %+v", r)
	}
	if _, err := proc.SystemBinary("wsl.exe"); err != nil && !IsFalse(r.Available) && r.Available != nil {
		t.Fatalf("no system wsl.exe (%v) but route %+v", err, r)
	}
	t.Logf("WSL route on this machine: %+v", r)
}

func TestSystemFactsMatchRtlGetVersion(t *testing.T) {
	s, err := systemFacts(winRegistry{})
	if err != nil {
		t.Fatal(err)
	}
	v := windows.RtlGetVersion()
	if s.OSBuild != strconv.Itoa(int(v.BuildNumber)) || !strings.HasPrefix(s.OSVersion, strconv.Itoa(int(v.MajorVersion))+".") {
		t.Fatalf("system %+v vs RtlGetVersion %d.%d.%d", s, v.MajorVersion, v.MinorVersion, v.BuildNumber)
	}
	// Logical processors are at least the CPUs this process may use and at least one
	// per package (issue 22 §6: a package count of 1 was read as one processor).
	if !strings.HasPrefix(s.OSName, "Microsoft Windows") || s.ProcessorPackages < 1 || s.LogicalProcessors < runtime.NumCPU() ||
		s.LogicalProcessors < s.ProcessorPackages || s.TotalPhysicalMemoryGB <= 0 || s.Architecture == "" {
		t.Fatalf("system %+v", s)
	}
	if s.IsWindows11() != (v.BuildNumber >= 22000) {
		t.Fatalf("IsWindows11 = %v for build %d (%q)", s.IsWindows11(), v.BuildNumber, s.OSName)
	}
	t.Logf("system: %+v", s)
}

func TestCaption(t *testing.T) {
	ver := func(major, minor, build uint32, typ byte) *windows.OsVersionInfoEx {
		return &windows.OsVersionInfoEx{MajorVersion: major, MinorVersion: minor, BuildNumber: build, ProductType: typ}
	}
	cases := []struct {
		product string
		v       *windows.OsVersionInfoEx
		want    string
	}{
		{"Windows 10 Pro", ver(10, 0, 22631, 1), "Microsoft Windows 11 Pro"},
		{"Windows 10 Pro", ver(10, 0, 19045, 1), "Microsoft Windows 10 Pro"},
		{"Windows 10 Enterprise LTSC 2021", ver(10, 0, 19044, 1), "Microsoft Windows 10 Enterprise LTSC 2021"},
		{"Microsoft Windows 7", ver(10, 0, 18362, 1), "Microsoft Windows 10"}, // a stale Wine prefix
		{"", ver(10, 0, 22000, 1), "Microsoft Windows 11"},
		{"Windows Server 2022 Datacenter", ver(10, 0, 20348, 3), "Microsoft Windows Server 2022 Datacenter"},
	}
	for _, c := range cases {
		if got := caption(c.product, c.v); got != c.want {
			t.Errorf("caption(%q, %d.%d.%d) = %q, want %q", c.product, c.v.MajorVersion, c.v.MinorVersion, c.v.BuildNumber, got, c.want)
		}
	}
}

func TestDevDriveProbe(t *testing.T) {
	f, errs := devDriveFacts()
	switch f.InventoryState {
	case StateAvailable:
		if len(errs) != 0 && !strings.Contains(errs[0], "enablement") {
			t.Fatalf("available inventory with errors %q", errs)
		}
	case StateUnknown:
		if len(errs) == 0 {
			t.Fatal("unknown inventory without an error")
		}
	default:
		t.Fatalf("inventory state %q", f.InventoryState)
	}
	for _, d := range f.Drives {
		if len(d.DriveLetter) > 1 || d.SizeGB < d.FreeSpaceGB {
			t.Errorf("drive %+v", d)
		}
	}
	switch f.State {
	case "enabled", "disabled_by_system_policy", "disabled_by_group_policy", "unsupported_api", StateUnknown:
	default:
		t.Fatalf("dev_drive_state %q", f.State)
	}
	if (f.State == "enabled") != IsTrue(f.Enabled) {
		t.Fatalf("state %q vs enabled %s", f.State, tri(f.Enabled))
	}
	t.Logf("dev drives: %+v errors %q", f, errs)
}

func TestNativeProducerWithFakeRunner(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "git.exe"), []byte("MZ"), 0o755); err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	if err := os.WriteFile(filepath.Join(cwd, "python.exe"), []byte("MZ"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := &fakeRunner{receipt: func(proc.Request) proc.Receipt { return okReceipt(0, "", "") }}
	p := nativeProducer{reg: winRegistry{}, runner: r, getenv: envOf(map[string]string{"PATH": bin + ";.;" + cwd, "PATHEXT": ".EXE"}),
		cwd: func() (string, error) { return cwd, nil }, systemBinary: proc.SystemBinary}
	f := p.Produce(t.Context())
	s, _ := Assemble(time.Now(), f)
	if !IsTrue(s.DevelopmentTools.GitAvailable) || !IsFalse(s.Runtimes.Python.Available) {
		t.Fatalf("presence: git %s python %s (a cwd executable is never evidence)", tri(s.DevelopmentTools.GitAvailable), tri(s.Runtimes.Python.Available))
	}
	for _, req := range r.reqs {
		if !strings.EqualFold(filepath.Base(req.Argv[0]), "vswhere.exe") {
			t.Fatalf("the native producer launched %q", req.Argv)
		}
	}
	if s.System.OSName == UnknownOSName || s.Virtualization.DevDriveInventoryState == "" {
		t.Fatalf("snapshot %+v", s)
	}
	if s.Virtualization.HyperVAvailable != nil {
		t.Fatal("the native producer never establishes optional features")
	}
	t.Logf("errors: %q", s.Errors)
}

func TestPlatformProducersOrderAndPowerShellRequest(t *testing.T) {
	r := &fakeRunner{receipt: func(req proc.Request) proc.Receipt { return okReceipt(0, validFeatures, "") }}
	ps := platformProducers(Options{Runner: r, Getenv: os.Getenv})
	if len(ps) != 2 || ps[0].Name() != "PowerShell" || ps[1].Name() != "native" {
		t.Fatalf("producers %v", ps)
	}
	f := ps[0].Produce(t.Context())
	exe, err := proc.SystemBinary(PowerShellRelPath)
	if err != nil {
		if r.calls() != 0 || !strings.Contains(f.Errors[0], "System Windows PowerShell") {
			t.Fatalf("missing PowerShell: runs %d errors %q", r.calls(), f.Errors)
		}
		t.Skipf("no system PowerShell here: %v", err)
	}
	if r.calls() != 1 || r.reqs[0].Argv[0] != exe {
		t.Fatalf("requests %+v, want argv[0] %s", r.reqs, exe)
	}
}

func TestRealPowerShellIgnoresAmbientModules(t *testing.T) {
	if isWine() {
		t.Skip("Wine's powershell.exe is a stub that exits 0 without running the script")
	}
	exe, err := proc.SystemBinary(PowerShellRelPath)
	if err != nil {
		t.Skipf("no system PowerShell: %v", err)
	}
	// A canary module on the ambient PSModulePath shadows every cmdlet the script
	// uses and writes a marker if it ever loads.
	mods := t.TempDir()
	marker := filepath.Join(t.TempDir(), "canary-loaded")
	canary := filepath.Join(mods, "WdaCanary")
	if err := os.MkdirAll(canary, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "Set-Content -LiteralPath '" + marker + "' -Value loaded\n"
	for _, c := range []string{"Get-WindowsOptionalFeature", "Get-CimInstance", "ConvertTo-Json", "Join-Path"} {
		body += "function " + c + " { Set-Content -LiteralPath '" + marker + "' -Value " + c + " }\n"
	}
	body += "Export-ModuleMember -Function *\n"
	if err := os.WriteFile(filepath.Join(canary, "WdaCanary.psm1"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PSModulePath", mods+";"+os.Getenv("PSModulePath"))
	f := PowerShellProducer{Runner: DefaultRunner, SystemBinary: proc.SystemBinary}.Produce(t.Context())
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the canary module was loaded")
	}
	if !f.ExecutionStarted || f.Features == nil {
		t.Fatalf("PowerShell %s produced no parsable features: %q", exe, f.Errors)
	}
	for _, st := range []string{f.Features.HyperV, f.Features.Sandbox, f.Features.WSL} {
		if st == "" && len(f.Errors) == 0 {
			t.Fatal("an unknown feature without an error")
		}
	}
	t.Logf("features %+v errors %q", *f.Features, f.Errors)
}
