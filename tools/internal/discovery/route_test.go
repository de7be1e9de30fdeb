package discovery

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	guidA = "{11111111-1111-1111-1111-111111111111}"
	guidB = "{22222222-2222-2222-2222-222222222222}"
)

func exeAt(p string) func() (string, error) { return func() (string, error) { return p, nil } }

func exeErr(err error) func() (string, error) { return func() (string, error) { return "", err } }

// sysWSL is an absolute path on the test host (the route never opens it).
var sysWSL = func() string { p, _ := filepath.Abs("wsl.exe"); return p }()

// storeWSL is a registry with the Store service and a WSL 2 default distro.
func storeWSL() *fakeRegistry {
	r := newFakeRegistry()
	r.key(LocalMachine, keyStoreService)
	return r.addDistro(guidA, "Ubuntu", 2, true).addDistro(guidB, "Debian", 2, false)
}

func TestWSLRouteState(t *testing.T) {
	notFound := fmt.Errorf("system binary not found: %w", fs.ErrNotExist)
	cases := []struct {
		name      string
		reg       func() *fakeRegistry
		exe       func() (string, error)
		want      *bool
		distro    string
		reasonHas string
	}{
		{"requires the system executable", storeWSL, exeErr(notFound), F, "", "WSL executable is not available"},
		{"relative executable is not the system one", storeWSL, exeAt("wsl.exe"), F, "", "WSL executable is not available"},
		{"executable metadata error is unknown", storeWSL, exeErr(errors.New("access denied")), N, "", "not established"},
		{"accepts a registered Store default", storeWSL, exeAt(sysWSL), T, "Ubuntu", "Ubuntu"},
		{"accepts a registered inbox default", func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyInboxService)
			return r.addDistro(guidB, "Debian", 2, true)
		}, exeAt(sysWSL), T, "Debian", "Debian"},
		{"default GUID matches case-insensitively", func() *fakeRegistry {
			r := storeWSL()
			return r.setString(CurrentUser, keyLxss, "DefaultDistribution", strings.ToLower(guidB))
		}, exeAt(sysWSL), T, "Debian", ""},
		{"honors AllowWSL=0", func() *fakeRegistry { return storeWSL().setDWORD(LocalMachine, keyWSLPolicy, "AllowWSL", 0) }, exeAt(sysWSL), F, "", "policy disables WSL"},
		{"AllowWSL=1 is allowed", func() *fakeRegistry { return storeWSL().setDWORD(LocalMachine, keyWSLPolicy, "AllowWSL", 1) }, exeAt(sysWSL), T, "Ubuntu", ""},
		{"policy read error is unknown", func() *fakeRegistry { return storeWSL().failOn(LocalMachine, keyWSLPolicy, "AllowWSL") }, exeAt(sysWSL), N, "", "AllowWSL"},
		{"service read error is unknown", func() *fakeRegistry { return storeWSL().failOn(LocalMachine, keyInboxService, "") }, exeAt(sysWSL), N, "", "service"},
		{"no service registered", func() *fakeRegistry {
			return newFakeRegistry().addDistro(guidA, "Ubuntu", 2, true)
		}, exeAt(sysWSL), F, "", "No WSL service"},
		{"AllowInboxWSL=0 blocks inbox-only WSL", func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyInboxService)
			return r.addDistro(guidA, "Ubuntu", 2, true).setDWORD(LocalMachine, keyWSLPolicy, "AllowInboxWSL", 0)
		}, exeAt(sysWSL), F, "", "Inbox WSL"},
		{"AllowInboxWSL=0 does not block Store WSL", func() *fakeRegistry {
			r := storeWSL()
			r.key(LocalMachine, keyInboxService)
			return r.setDWORD(LocalMachine, keyWSLPolicy, "AllowInboxWSL", 0)
		}, exeAt(sysWSL), T, "Ubuntu", ""},
		{"AllowInboxWSL read error with inbox-only is unknown", func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyInboxService)
			return r.addDistro(guidA, "Ubuntu", 2, true).failOn(LocalMachine, keyWSLPolicy, "AllowInboxWSL")
		}, exeAt(sysWSL), N, "", "AllowInboxWSL"},
		{"requires a registered default distro (no Lxss key)", func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyStoreService)
			return r
		}, exeAt(sysWSL), F, "", "default WSL distribution"},
		{"requires a registered default distro (no DefaultDistribution)", func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyStoreService)
			return r.addDistro(guidA, "Ubuntu", 2, false)
		}, exeAt(sysWSL), F, "", "default WSL distribution"},
		{"default GUID without a subkey", func() *fakeRegistry {
			return storeWSL().setString(CurrentUser, keyLxss, "DefaultDistribution", "{99999999-0000-0000-0000-000000000000}")
		}, exeAt(sysWSL), F, "", "default WSL distribution"},
		{"distribution read error is unknown", func() *fakeRegistry { return storeWSL().failOn(CurrentUser, keyLxss, "") }, exeAt(sysWSL), N, "", "distribution"},
		{"distribution name read error is unknown", func() *fakeRegistry {
			return storeWSL().failOn(CurrentUser, keyLxss+`\`+guidA, "DistributionName")
		}, exeAt(sysWSL), N, "", "distribution"},
		{"honors AllowWSL1=0 for version-1 distros", func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyStoreService)
			return r.addDistro(guidA, "Legacy", 1, true).setDWORD(LocalMachine, keyWSLPolicy, "AllowWSL1", 0)
		}, exeAt(sysWSL), F, "Legacy", "WSL 1"},
		{"AllowWSL1=0 with unknown version is unknown", func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyStoreService)
			return r.addDistro(guidA, "Mystery", 0, true).setDWORD(LocalMachine, keyWSLPolicy, "AllowWSL1", 0)
		}, exeAt(sysWSL), N, "Mystery", "version is unknown"},
		{"AllowWSL1=0 does not affect version 2", func() *fakeRegistry {
			return storeWSL().setDWORD(LocalMachine, keyWSLPolicy, "AllowWSL1", 0)
		}, exeAt(sysWSL), T, "Ubuntu", ""},
		{"AllowWSL1 read error for a v1 default is unknown", func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyStoreService)
			return r.addDistro(guidA, "Legacy", 1, true).failOn(LocalMachine, keyWSLPolicy, "AllowWSL1")
		}, exeAt(sysWSL), N, "", "AllowWSL1"},
		{"AllowWSL1 is not read for a v2 default", func() *fakeRegistry {
			return storeWSL().failOn(LocalMachine, keyWSLPolicy, "AllowWSL1")
		}, exeAt(sysWSL), T, "Ubuntu", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := wslRoute(routeDeps{reg: c.reg(), wslExe: c.exe})
			if tri(got.Available) != tri(c.want) {
				t.Fatalf("Available = %s, want %s (reason %q)", tri(got.Available), tri(c.want), got.Reason)
			}
			if got.DefaultDistribution != c.distro {
				t.Errorf("DefaultDistribution = %q, want %q", got.DefaultDistribution, c.distro)
			}
			if !strings.Contains(got.Reason, c.reasonHas) || got.Reason == "" {
				t.Errorf("Reason = %q, want it to contain %q", got.Reason, c.reasonHas)
			}
		})
	}
}

func TestWSLRouteMatchesDiscoveryAuthority(t *testing.T) {
	// Discovery's wsl_available and the router agree wherever both are established
	// (the route does not use the Store package or the inbox feature).
	regs := map[string]func() *fakeRegistry{
		"store":  storeWSL,
		"no-def": func() *fakeRegistry { r := newFakeRegistry(); r.key(LocalMachine, keyStoreService); return r },
		"policy": func() *fakeRegistry { return storeWSL().setDWORD(LocalMachine, keyWSLPolicy, "AllowWSL", 0) },
		"wsl1": func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyStoreService)
			return r.addDistro(guidA, "L", 1, true).setDWORD(LocalMachine, keyWSLPolicy, "AllowWSL1", 0)
		},
		"inboxoff": func() *fakeRegistry {
			r := newFakeRegistry()
			r.key(LocalMachine, keyInboxService)
			return r.addDistro(guidA, "U", 2, true).setDWORD(LocalMachine, keyWSLPolicy, "AllowInboxWSL", 0)
		},
	}
	for name, mk := range regs {
		route := wslRoute(routeDeps{reg: mk(), wslExe: exeAt(sysWSL)})
		facts, errs := readWSLFacts(mk(), exeAt(sysWSL))
		if len(errs) != 0 {
			t.Fatalf("%s: unexpected errors %v", name, errs)
		}
		facts.InboxFeature = facts.InboxService
		if got := facts.Available(); tri(got) != tri(route.Available) {
			t.Errorf("%s: discovery wsl_available = %s, route = %s (%s)", name, tri(got), tri(route.Available), route.Reason)
		}
	}
}

func TestReadWSLFactsErrors(t *testing.T) {
	r := storeWSL().failOn(LocalMachine, keyWSLPolicy, "AllowWSL1").failOn(CurrentUser, keyAppxPackages, "")
	f, errs := readWSLFacts(r, exeErr(errors.New("boom")))
	want := []string{
		"WSL executable state was not established: boom",
		"Store WSL package state was not established: Access is denied.",
		"WSL policy AllowWSL1 was not established: Access is denied.",
	}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Fatalf("errors (-want +got):\n%s", diff)
	}
	if f.Exe != nil || f.StorePackage != nil || f.AllowWSL1.Established {
		t.Fatalf("failed reads must stay unknown: %+v", f)
	}
	if !IsTrue(f.StoreService) || !IsFalse(f.InboxService) || !f.Inventory.Established {
		t.Fatalf("successful reads must be established: %+v", f)
	}
}

func TestStorePackageFromAppModelRepository(t *testing.T) {
	r := newFakeRegistry()
	if got, err := readStorePackage(r); got != nil || err != nil {
		t.Fatalf("missing repository = %s, %v; want unknown without error", tri(got), err)
	}
	r.key(CurrentUser, keyAppxPackages)
	r.key(CurrentUser, keyAppxPackages+`\Microsoft.WindowsTerminal_1.0_x64__8wekyb3d8bbwe`)
	if got, _ := readStorePackage(r); !IsFalse(got) {
		t.Fatalf("repository without WSL = %s, want false", tri(got))
	}
	r.key(CurrentUser, keyAppxPackages+`\MicrosoftCorporationII.WindowsSubsystemForLinux_2.0.9.0_x64__8wekyb3d8bbwe`)
	if got, _ := readStorePackage(r); !IsTrue(got) {
		t.Fatalf("repository with WSL = %s, want true", tri(got))
	}
}
