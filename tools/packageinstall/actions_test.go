package packageinstall

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/pmtest"
)

// TestActions: each manager's three actions, with and without an exact version, plan
// the manager's own non-interactive argv, and executing the plan's execute_arguments
// runs exactly that argv (the fake records it) after the cache was invalidated (issue 25
// §1).
func TestActions(t *testing.T) {
	t.Parallel()
	wingetTail := []string{"--source", "winget", "--accept-package-agreements", "--accept-source-agreements", "--disable-interactivity"}
	tests := []struct {
		source, exe, action, version string
		tail                         []string
	}{
		{"winget", "winget", "", "", append([]string{"install", "--id", "Git.Git", "--exact"}, wingetTail...)},
		{"winget", "winget", "install", "2.45.1", append([]string{"install", "--id", "Git.Git", "--exact", "--version", "2.45.1"}, wingetTail...)},
		{"winget", "winget", "upgrade", "", []string{"upgrade", "--id", "Git.Git", "--exact", "--source", "winget",
			"--accept-package-agreements", "--accept-source-agreements", "--silent", "--disable-interactivity"}},
		{"winget", "winget", "upgrade", "2.46.0", []string{"upgrade", "--id", "Git.Git", "--exact", "--version", "2.46.0", "--source", "winget",
			"--accept-package-agreements", "--accept-source-agreements", "--silent", "--disable-interactivity"}},
		// winget uninstall takes no --accept-package-agreements.
		{"winget", "winget", "uninstall", "", []string{"uninstall", "--id", "Git.Git", "--exact", "--source", "winget",
			"--accept-source-agreements", "--silent", "--disable-interactivity"}},
		{"chocolatey", "choco", "install", "", []string{"install", "Git.Git", "-y"}},
		{"chocolatey", "choco", "install", "2.45.1", []string{"install", "Git.Git", "-y", "--version=2.45.1"}},
		// choco upgrade installs a package that is not installed unless told not to.
		{"chocolatey", "choco", "upgrade", "", []string{"upgrade", "Git.Git", "-y", "--fail-on-not-installed"}},
		{"chocolatey", "choco", "upgrade", "2.46.0-rc0", []string{"upgrade", "Git.Git", "-y", "--fail-on-not-installed", "--version=2.46.0-rc0"}},
		{"chocolatey", "choco", "uninstall", "", []string{"uninstall", "Git.Git", "-y"}},
		{"scoop", "scoop", "install", "", []string{"install", "Git.Git"}},
		{"scoop", "scoop", "install", "2.45.1.windows.1", []string{"install", "Git.Git@2.45.1.windows.1"}},
		{"scoop", "scoop", "upgrade", "", []string{"update", "Git.Git"}},
		{"scoop", "scoop", "uninstall", "", []string{"uninstall", "Git.Git"}},
	}
	for _, tt := range tests {
		t.Run(tt.exe+"/"+tt.action+"/"+tt.version, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			exe := w.fake(tt.exe, pmtest.Config{RequireInvalidated: true})
			p := w.call(DefaultDeps(), In{PackageID: "Git.Git", Source: tt.source, Action: tt.action, Version: tt.version})
			action := tt.action
			if action == "" {
				action = "install"
			}
			want := append([]string{exe}, tt.tail...)
			if p.Status.Status != "planned" || p.Plan == nil {
				t.Fatalf("plan = %+v", p)
			}
			if d := cmp.Diff(want, p.Argv); d != "" {
				t.Errorf("planned argv (-want +got):\n%s", d)
			}
			if p.Action != action || p.Version != tt.version || p.Verify != verifyFor(action) {
				t.Errorf("plan action %q version %q verify %q", p.Action, p.Version, p.Verify)
			}
			ea := p.ExecuteArguments
			if ea == nil || ea.Action != action || ea.Version != tt.version || !ea.Execute {
				t.Fatalf("execute_arguments = %+v", ea)
			}
			if _, ran := w.Ran(); ran || !w.cacheIntact() {
				t.Fatal("planning ran the manager or touched the cache")
			}
			out := w.call(DefaultDeps(), *ea)
			if out.Status.Status != "completed" || out.EnvironmentCacheInvalidated == nil || !*out.EnvironmentCacheInvalidated {
				t.Fatalf("execute = %+v receipt %+v", out.Status, out.Receipt)
			}
			rep, ran := w.Ran()
			if !ran {
				t.Fatal("the fake never ran")
			}
			if d := cmp.Diff(want, rep.Argv); d != "" {
				t.Errorf("argv the manager received (-want +got):\n%s", d)
			}
		})
	}
}

// TestVersionAndActionRefused: a version the manager would not accept for the action,
// a malformed version and an unknown action are refused before anything runs, naming the
// field and the rule; nothing is planned, run or invalidated.
func TestVersionAndActionRefused(t *testing.T) {
	t.Parallel()
	const (
		malformed = "version must be 1-128 characters: letters, digits, '.', '_', '+', '-', starting with a letter or digit"
		nuget     = "version for chocolatey must be a NuGet version: 1 to 4 dot-separated numbers, optionally followed by -prerelease and +metadata (letters, digits, '.', '-')"
		uninstall = "version applies to install and upgrade only: uninstall removes the installed package whatever its version"
		scoopUp   = "version cannot be used to upgrade with scoop: scoop update takes no version (uninstall, then install with the version)"
		action    = "action must be one of [install upgrade uninstall]"
	)
	tests := []struct {
		source, action, version, want string
	}{
		{"winget", "", "1.0 beta", malformed},
		{"winget", "install", "-1", malformed},
		{"winget", "upgrade", "--force", malformed},
		{"winget", "", "1;calc", malformed},
		{"winget", "", "$(x)", malformed},
		{"winget", "", "1.0\n", malformed},
		{"winget", "", "a/b", malformed},
		{"winget", "", `1\2`, malformed},
		{"winget", "", "é1", malformed},
		{"winget", "", "1@2", malformed},
		{"winget", "", strings.Repeat("1", 129), malformed},
		{"scoop", "install", "1 2", malformed},
		{"chocolatey", "install", "latest", nuget},
		{"chocolatey", "install", "v1.2", nuget},
		{"chocolatey", "upgrade", "1.2.3.4.5", nuget},
		{"chocolatey", "install", "1..2", nuget},
		{"chocolatey", "install", "1.0-", nuget},
		{"chocolatey", "install", "1.0+", nuget},
		{"chocolatey", "install", "1.0-be_ta", nuget},
		{"winget", "uninstall", "1.0", uninstall},
		{"chocolatey", "uninstall", "1.0", uninstall},
		{"scoop", "uninstall", "1.0", uninstall},
		{"scoop", "upgrade", "1.0", scoopUp},
		{"winget", "remove", "", action},
		{"winget", "Install", "", action},
	}
	for _, tt := range tests {
		t.Run(tt.source+"/"+tt.action+"/"+tt.version, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			exe := map[string]string{"winget": "winget", "chocolatey": "choco", "scoop": "scoop"}[tt.source]
			w.fake(exe, pmtest.Config{})
			for _, execute := range []bool{false, true} {
				in := In{PackageID: "Git.Git", Source: tt.source, Action: tt.action, Version: tt.version, Execute: execute}
				if execute {
					p := w.call(DefaultDeps(), In{PackageID: "Git.Git", Source: tt.source})
					in.Identity = echo(p)
				}
				out := w.call(DefaultDeps(), in)
				want := Out{Status: tools.Status{Status: "invalid_input", Error: tt.want}}
				if d := cmp.Diff(want, out); d != "" {
					t.Errorf("execute %v (-want +got):\n%s", execute, d)
				}
			}
			if _, ran := w.Ran(); ran || !w.cacheIntact() {
				t.Error("ran or invalidated")
			}
		})
	}
}

// TestVersionsAccepted: versions each manager takes are planned as given.
func TestVersionsAccepted(t *testing.T) {
	t.Parallel()
	tests := []struct{ source, version string }{
		{"winget", "2.45.1"}, {"winget", "7.4.6.0"}, {"winget", "1.0.0-beta"}, {"winget", "2024.01"}, {"winget", strings.Repeat("9", 128)},
		{"chocolatey", "1"}, {"chocolatey", "1.2"}, {"chocolatey", "1.2.3.4"}, {"chocolatey", "1.0.0-beta1"},
		{"chocolatey", "1.0.0-rc.1+build.5"}, {"chocolatey", "7.4.6.20241015"},
		{"scoop", "2.45.1.windows.1"}, {"scoop", "nightly-20230101"}, {"scoop", "8.1.2_3"}, {"scoop", "10.3-20230510"},
	}
	for _, tt := range tests {
		w := newWorld(t)
		out := w.call(DefaultDeps(), In{PackageID: "Git.Git", Source: tt.source, Version: tt.version})
		if out.Status.Status != "planned" || out.Plan == nil || out.Version != tt.version {
			t.Errorf("%s %q: %+v", tt.source, tt.version, out.Status)
		}
	}
}

// TestUninstallClassification: every execution, uninstall included, is
// approval-required; a plan of any action runs nothing and is read-only.
func TestUninstallClassification(t *testing.T) {
	t.Parallel()
	tool := New(DefaultDeps())
	for _, action := range []string{"install", "upgrade", "uninstall"} {
		if got := tool.Classify(tools.Args{"action": action, "execute": true}); got != tools.ApprovalRequired {
			t.Errorf("%s execute: %s", action, got)
		}
		if got := tool.Classify(tools.Args{"action": action}); got != tools.ReadOnly {
			t.Errorf("%s plan: %s", action, got)
		}
	}
	if a := tool.Annotations(); !a.Destructive || a.ReadOnly || a.Idempotent {
		t.Errorf("annotations %+v: uninstall must be annotated destructive", a)
	}
}

// TestActionInvalidatesCache: an upgrade and an uninstall, like an install, invalidate
// the environment cache before the manager starts (the fake refuses to run otherwise)
// and leave it invalidated when the manager fails.
func TestActionInvalidatesCache(t *testing.T) {
	t.Parallel()
	for _, action := range []string{"upgrade", "uninstall"} {
		t.Run(action, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake("winget", pmtest.Config{RequireInvalidated: true, Exit: 5})
			p := w.call(DefaultDeps(), In{PackageID: "Contoso.App", Action: action})
			out := w.call(DefaultDeps(), *p.ExecuteArguments)
			if out.Status.Status != "failed" || out.ReturnCode == nil || *out.ReturnCode != 5 ||
				out.EnvironmentCacheInvalidated == nil || !*out.EnvironmentCacheInvalidated || w.cacheIntact() {
				t.Errorf("out = %+v receipt %+v", out.Status, out.Receipt)
			}
		})
	}
}
