//go:build !windows

package discovery

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func touch(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
}

func TestSearchPathSanitizing(t *testing.T) {
	root := t.TempDir()
	bin, cwd := filepath.Join(root, "bin"), filepath.Join(root, "work")
	touch(t, filepath.Join(bin, "git"), 0o755)
	touch(t, filepath.Join(bin, "notes"), 0o644) // not executable
	touch(t, filepath.Join(cwd, "wda-fake"), 0o755)
	if err := os.MkdirAll(filepath.Join(bin, "python"), 0o755); err != nil { // a directory, not a tool
		t.Fatal(err)
	}
	link := filepath.Join(root, "links")
	if err := os.MkdirAll(link, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(bin, "git"), filepath.Join(link, "node")); err != nil {
		t.Fatal(err)
	}
	path := " " + bin + " ::.:relative:'" + link + "':" + cwd + ":" + cwd + "/:" + bin + "/"
	sp := newSearchPath(envOf(map[string]string{"PATH": path}), cwd, false)
	if diff := cmp.Diff([]string{bin, link}, sp.dirs); diff != "" {
		t.Fatalf("dirs (-want +got):\n%s", diff)
	}
	cases := map[string]*bool{"git": T, "node": T, "notes": F, "python": F, "wda-fake": F, "missing": F}
	for name, want := range cases {
		if got := sp.has(name); tri(got) != tri(want) {
			t.Errorf("has(%q) = %s, want %s", name, tri(got), tri(want))
		}
	}
}

func TestPortableProducer(t *testing.T) {
	bin := t.TempDir()
	for _, n := range []string{"git", "python", "go", "winget", "code"} {
		touch(t, filepath.Join(bin, n), 0o755)
	}
	p := portableProducer{goos: "plan9", getenv: envOf(map[string]string{"PATH": bin}),
		cwd: func() (string, error) { return t.TempDir(), nil },
		system: func() (System, error) {
			return System{OSName: "Test OS", LogicalProcessors: 2, ProcessorPackages: 1}, nil
		}}
	s, started := Assemble(t0, p.Produce(t.Context()))
	if started {
		t.Error("the portable producer never launches anything")
	}
	if diff := cmp.Diff([]string{platformError("plan9")}, s.Errors); diff != "" {
		t.Fatalf("errors (-want +got):\n%s", diff)
	}
	d := s.Derived()
	if diff := cmp.Diff([]string{"python", "golang"}, d.AvailableRuntimes); diff != "" {
		t.Errorf("runtimes (-want +got):\n%s", diff)
	}
	if !IsTrue(s.DevelopmentTools.WingetAvailable) || !IsFalse(s.DevelopmentTools.ScoopAvailable) || !IsTrue(s.Git.Available) || !IsTrue(s.Editors.VisualStudioCode) {
		t.Errorf("presence %+v", s.DevelopmentTools)
	}
	v := s.Virtualization
	for name, f := range map[string]*bool{"hyper_v": v.HyperVAvailable, "wsl_installed": v.WSLInstalled, "wsl_available": v.WSLAvailable,
		"sandbox": v.WindowsSandboxAvailable, "dev_drive": v.DevDriveEnabled, "vs": s.DevelopmentTools.VisualStudioAvailable,
		"rider": s.Editors.JetBrainsRider} {
		if f != nil {
			t.Errorf("Windows-only fact %s = %s, want null", name, tri(f))
		}
	}
	if s.System.OSName != "Test OS" {
		t.Errorf("system %+v", s.System)
	}
}

func TestPortableProducerFailures(t *testing.T) {
	p := portableProducer{goos: "linux", getenv: envOf(nil),
		cwd:    func() (string, error) { return "", os.ErrPermission },
		system: func() (System, error) { return System{}, os.ErrInvalid }}
	s, _ := Assemble(t0, p.Produce(t.Context()))
	want := []string{"System information was not established: invalid argument",
		"Executable search authority was not established: permission denied", platformError("linux")}
	if diff := cmp.Diff(want, s.Errors); diff != "" {
		t.Fatalf("errors (-want +got):\n%s", diff)
	}
	if s.System.OSName != UnknownOSName || s.DevelopmentTools.GitAvailable != nil || s.Runtimes.Python.Available != nil {
		t.Fatalf("failed blocks must be unknown: %+v %+v", s.System, s.DevelopmentTools)
	}
}

func TestPlatformSystemFacts(t *testing.T) {
	s, err := systemFacts()
	if err != nil {
		t.Fatal(err)
	}
	if s.OSName == "" || s.OSVersion == "" || s.Architecture == "" || s.ProcessorPackages < 1 || s.TotalPhysicalMemoryGB <= 0 ||
		s.LogicalProcessors < runtime.NumCPU() || s.LogicalProcessors < s.ProcessorPackages {
		t.Fatalf("system facts %+v", s)
	}
}

func TestWSLRouteOffWindows(t *testing.T) {
	r := WSLRoute()
	if !IsFalse(r.Available) || r.Reason == "" || r.DefaultDistribution != "" {
		t.Fatalf("route %+v", r)
	}
}
