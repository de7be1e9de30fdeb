package discovery

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/windows-dev-agent/wda/internal/proc"
)

var psExe = func() string { p, _ := filepath.Abs(filepath.Join("Windows", "System32", "powershell.exe")); return p }()

func psProducer(t *testing.T, r *fakeRunner) PowerShellProducer {
	return PowerShellProducer{Runner: r, TempDir: t.TempDir(), SystemBinary: func(name string) (string, error) {
		if name != PowerShellRelPath {
			t.Errorf("SystemBinary(%q), want %q", name, PowerShellRelPath)
		}
		return psExe, nil
	}}
}

const validFeatures = `{"format":"wda-optional-features/1","features":{"Microsoft-Hyper-V":"Enabled","Containers-DisposableClientVM":"Disabled","Microsoft-Windows-Subsystem-Linux":"Absent"},"errors":[]}`

func TestPowerShellRequest(t *testing.T) {
	// docs/discovery.md, "Windows: the PowerShell producer": only the system PowerShell,
	// through the runner, 30 s, 1 MiB, 64 KiB.
	var script []byte
	r := &fakeRunner{receipt: func(req proc.Request) proc.Receipt {
		script, _ = os.ReadFile(req.Argv[len(req.Argv)-1])
		return okReceipt(0, validFeatures, "")
	}}
	p := psProducer(t, r)
	f := p.Produce(t.Context())
	if len(r.reqs) != 1 {
		t.Fatalf("runs = %d", len(r.reqs))
	}
	req := r.reqs[0]
	wantArgv := []string{psExe, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File"}
	if diff := cmp.Diff(wantArgv, req.Argv[:len(req.Argv)-1]); diff != "" {
		t.Errorf("argv (-want +got):\n%s", diff)
	}
	if req.Timeout.Seconds() != 30 || req.StdoutLimit != 1<<20 || req.StderrLimit != 64<<10 {
		t.Errorf("limits: timeout %v stdout %d stderr %d", req.Timeout, req.StdoutLimit, req.StderrLimit)
	}
	if req.Dir == "" || !filepath.IsAbs(req.Dir) {
		t.Errorf("Dir = %q, want an absolute private directory", req.Dir)
	}
	if !bytes.Equal(script, featuresScript) {
		t.Errorf("the script run is not the embedded script")
	}
	if _, err := os.Stat(req.Dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("script directory left behind: %v", err)
	}
	if !f.ExecutionStarted || len(f.Errors) != 0 || *f.Features != (Features{HyperV: "Enabled", Sandbox: "Disabled", WSL: "Absent"}) {
		t.Errorf("facts %+v %+v", f, f.Features)
	}
}

func TestPowerShellScriptContract(t *testing.T) {
	s := string(featuresScript)
	for _, must := range []string{"$env:PSModulePath = $modules", "Join-Path -Path $PSHOME -ChildPath 'Modules'", "exit 3",
		"'Microsoft-Hyper-V'", "'Containers-DisposableClientVM'", "'Microsoft-Windows-Subsystem-Linux'",
		"$ErrorActionPreference = 'Stop'", "-Depth 10", featuresFormat} {
		if !strings.Contains(s, must) {
			t.Errorf("script lacks %q", must)
		}
	}
	// docs/discovery.md, "Windows: the PowerShell producer" and "Never collected": never
	// the wrong Sandbox identity, never private data.
	for _, never := range []string{"Containers-DisposableVM'", "Get-Module -ListAvailable", "user.name", "USERNAME", "USERDOMAIN", "Get-Command", "wsl.exe"} {
		if strings.Contains(s, never) {
			t.Errorf("script contains %q", never)
		}
	}
	// The module path is locked before any cmdlet that could auto-load a module.
	if strings.Index(s, "$env:PSModulePath = $modules") > strings.Index(s, "Get-WindowsOptionalFeature") {
		t.Error("PSModulePath must be locked before the first feature query")
	}
}

func TestPowerShellOutcomes(t *testing.T) {
	code := func(n int) *int { return &n }
	cases := []struct {
		name        string
		receipt     proc.Receipt
		wantErr     string // substring of the only (or last) error
		wantStarted bool
		wantFeat    *Features
		nErrors     int
	}{
		{"valid", okReceipt(0, validFeatures, ""), "", true, &Features{"Enabled", "Disabled", "Absent"}, 0},
		{"valid with probe errors", okReceipt(0, `{"format":"wda-optional-features/1","features":{"Microsoft-Hyper-V":null,"Containers-DisposableClientVM":"Enabled","Microsoft-Windows-Subsystem-Linux":null},"errors":["Optional feature 'Microsoft-Hyper-V' was not established: elevation required"]}`, ""),
			"Microsoft-Windows-Subsystem-Linux", true, &Features{"", "Enabled", ""}, 2},
		{"launch refused", proc.Receipt{Error: "identity mismatch"}, "System Windows PowerShell could not start: identity mismatch", false, nil, 1},
		{"timeout", proc.Receipt{ExecutionStarted: true, TimedOut: true, Stdout: validFeatures, OutputCaptureComplete: true, OutputCaptureSettled: true},
			"timed out", true, nil, 1},
		{"truncated stdout that parses", func() proc.Receipt { r := okReceipt(0, validFeatures, ""); r.StdoutTruncated = true; return r }(),
			"incomplete or truncated", true, nil, 1},
		{"incomplete capture that parses", func() proc.Receipt { r := okReceipt(0, validFeatures, ""); r.OutputCaptureComplete = false; return r }(),
			"incomplete or truncated", true, nil, 1},
		{"unsettled capture that parses", func() proc.Receipt { r := okReceipt(0, validFeatures, ""); r.OutputCaptureSettled = false; return r }(),
			"incomplete or truncated", true, nil, 1},
		{"oversize output", func() proc.Receipt {
			r := okReceipt(0, strings.Repeat(" ", PowerShellStdoutLimit-len(validFeatures))+validFeatures, "")
			r.StdoutTruncated = true
			return r
		}(), "incomplete or truncated", true, nil, 1},
		{"invalid JSON with stderr", okReceipt(3, "", "PowerShell module directory was not found: C:\\x"), "module directory was not found", true, nil, 1},
		{"invalid JSON without stderr", okReceipt(0, "{not json", ""), "returned invalid or oversized JSON", true, nil, 1},
		{"JSON not the model", okReceipt(0, `{"format":"wda-optional-features/1","features":["x"]}`, ""), "Failed to parse discovery result", true, nil, 1},
		{"JSON of another format", okReceipt(0, `{"features":{}}`, ""), "Failed to parse discovery result", true, nil, 1},
		{"JSON missing a feature", okReceipt(0, `{"format":"wda-optional-features/1","features":{"Microsoft-Hyper-V":"Enabled"}}`, ""), "Failed to parse discovery result", true, nil, 1},
		{"valid JSON, non-zero exit", okReceipt(5, validFeatures, "warning"), "Discovery process exited with code 5: warning", true, &Features{"Enabled", "Disabled", "Absent"}, 1},
		{"valid JSON, no exit code", proc.Receipt{ExecutionStarted: true, OutputCaptureComplete: true, OutputCaptureSettled: true, Stdout: validFeatures, LifecycleError: "wait failed"},
			"exited with code unknown", true, &Features{"Enabled", "Disabled", "Absent"}, 1},
		{"empty stdout", okReceipt(0, "", ""), "invalid or oversized JSON", true, nil, 1},
		{"unknown keys tolerated", okReceipt(0, `{"format":"wda-optional-features/1","extra":1,"features":{"Microsoft-Hyper-V":"EnablePending","Containers-DisposableClientVM":"Disabled","Microsoft-Windows-Subsystem-Linux":"Enabled","Other":"x"}}`, ""),
			"", true, &Features{"EnablePending", "Disabled", "Enabled"}, 0},
		{"code returned but receipt refused", proc.Receipt{ReturnCode: code(1)}, "could not start", false, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &fakeRunner{receipt: func(proc.Request) proc.Receipt { return c.receipt }}
			f := psProducer(t, r).Produce(t.Context())
			if f.ExecutionStarted != c.wantStarted {
				t.Errorf("ExecutionStarted = %v, want %v", f.ExecutionStarted, c.wantStarted)
			}
			if len(f.Errors) != c.nErrors {
				t.Fatalf("errors = %q, want %d", f.Errors, c.nErrors)
			}
			if c.wantErr != "" && !strings.Contains(f.Errors[len(f.Errors)-1], c.wantErr) {
				t.Errorf("error %q does not contain %q", f.Errors[len(f.Errors)-1], c.wantErr)
			}
			if diff := cmp.Diff(c.wantFeat, f.Features); diff != "" {
				t.Errorf("features (-want +got):\n%s", diff)
			}
			// Whatever happened, the assembled snapshot keeps the canonical shape and
			// leaves failed features null, never false.
			s, _ := Assemble(t0, f)
			if c.wantFeat == nil && (s.Virtualization.WindowsSandboxAvailable != nil || s.Virtualization.HyperVState != StateUnknown) {
				t.Errorf("failed run must leave features unknown: %+v", s.Virtualization)
			}
			if c.nErrors > 0 && s.Success {
				t.Error("a run with errors must be degraded")
			}
		})
	}
}

func TestNoSystemPowerShellLaunchesNothing(t *testing.T) {
	// docs/discovery.md, "Windows: the PowerShell producer": degraded, first error
	// mentions "System Windows PowerShell", no run.
	r := &fakeRunner{receipt: func(proc.Request) proc.Receipt { return okReceipt(0, validFeatures, "") }}
	p := PowerShellProducer{Runner: r, TempDir: t.TempDir(), SystemBinary: func(string) (string, error) {
		return "", fmt.Errorf("system binary not found: %w", fs.ErrNotExist)
	}}
	native := newStatic("native", func() Facts { return Facts{Errors: []string{"native problem"}} })
	res := Discover(t.Context(), Options{Producers: []Producer{p, native}}, false)
	if r.calls() != 0 || res.ExecutionStarted {
		t.Fatalf("launched %d, execution_started %v", r.calls(), res.ExecutionStarted)
	}
	if res.Snapshot.Success || !strings.Contains(res.Snapshot.Errors[0], "System Windows PowerShell") {
		t.Fatalf("errors %q", res.Snapshot.Errors)
	}
}

func TestScriptPreparationFailure(t *testing.T) {
	r := &fakeRunner{}
	p := PowerShellProducer{Runner: r, TempDir: filepath.Join(t.TempDir(), "missing", "dir"),
		SystemBinary: func(string) (string, error) { return psExe, nil }}
	f := p.Produce(t.Context())
	if r.calls() != 0 || f.ExecutionStarted || len(f.Errors) != 1 || !strings.Contains(f.Errors[0], "discovery script") {
		t.Fatalf("facts %+v, runs %d", f, r.calls())
	}
}
