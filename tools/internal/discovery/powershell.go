package discovery

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// featuresScript is the PowerShell producer's script, embedded so the binary needs
// no plugin file and the script cannot be swapped on disk between releases.
//
//go:embed features.ps1
var featuresScript []byte

// PowerShell producer limits and identity (docs/discovery.md,
// "Windows: the PowerShell producer").
const (
	PowerShellRelPath      = `WindowsPowerShell\v1.0\powershell.exe`
	PowerShellTimeout      = 30 * time.Second
	PowerShellStdoutLimit  = 1 << 20
	PowerShellStderrLimit  = 64 << 10
	featuresFormat         = "wda-optional-features/1"
	powerShellScriptPrefix = "wda-discovery-"
)

// powerShellArgs follow the executable in argv; the script path comes last.
var powerShellArgs = []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File"}

// PowerShellProducer queries the three optional features, the only facts that need
// PowerShell. It runs the Windows-owned powershell.exe (never one from PATH) through
// the bounded runner, and rejects output that is incomplete or truncated even when
// the bytes parse.
type PowerShellProducer struct {
	Runner       proc.Runner
	SystemBinary func(string) (string, error)
	// TempDir is where the script file is written for -File; "" is os.TempDir().
	TempDir string
}

// Name implements Producer.
func (PowerShellProducer) Name() string { return "PowerShell" }

// Produce implements Producer. On any failure Features stays nil (every feature
// unknown) and one error explains why.
func (p PowerShellProducer) Produce(ctx context.Context) Facts {
	fail := func(started bool, format string, a ...any) Facts {
		return Facts{Errors: []string{fmt.Sprintf(format, a...)}, ExecutionStarted: started}
	}
	exe, err := p.SystemBinary(PowerShellRelPath)
	if err != nil {
		return fail(false, "System Windows PowerShell was not found: %v", err)
	}
	if !filepath.IsAbs(exe) {
		return fail(false, "System Windows PowerShell was not found: %q is not an absolute path", exe)
	}
	dir, err := os.MkdirTemp(p.TempDir, powerShellScriptPrefix)
	if err != nil {
		return fail(false, "The discovery script could not be prepared: %v", err)
	}
	// Best effort: a leftover script in the temp directory is harmless, and the
	// discovery result does not depend on its removal.
	defer func() { _ = os.RemoveAll(dir) }()
	script := filepath.Join(dir, "features.ps1")
	if err := os.WriteFile(script, featuresScript, 0o600); err != nil {
		return fail(false, "The discovery script could not be prepared: %v", err)
	}
	r := p.Runner.Run(ctx, proc.Request{
		Argv:        append(append([]string{exe}, powerShellArgs...), script),
		Dir:         dir,
		Timeout:     PowerShellTimeout,
		StdoutLimit: PowerShellStdoutLimit,
		StderrLimit: PowerShellStderrLimit,
	})
	return parsePowerShell(r)
}

// parsePowerShell turns a receipt into facts in the order of docs/discovery.md,
// "Windows: the PowerShell producer".
func parsePowerShell(r proc.Receipt) Facts {
	fail := func(format string, a ...any) Facts {
		return Facts{Errors: []string{fmt.Sprintf(format, a...)}, ExecutionStarted: r.ExecutionStarted}
	}
	switch {
	case !r.ExecutionStarted:
		return fail("System Windows PowerShell could not start: %s", firstNonEmpty(r.Error, r.LifecycleError))
	case r.TimedOut:
		return fail("System Windows PowerShell discovery timed out after %s", PowerShellTimeout)
	case !r.StdoutWhole():
		return fail("System Windows PowerShell discovery output was incomplete or truncated")
	}
	var out struct {
		Format   string             `json:"format"`
		Features map[string]*string `json:"features"`
		Errors   []string           `json:"errors"`
	}
	raw := bytes.TrimSpace([]byte(r.Stdout))
	if !json.Valid(raw) {
		if msg := strings.TrimSpace(r.Stderr); msg != "" && r.StderrWhole() {
			return fail("System Windows PowerShell discovery failed: %s", msg)
		}
		return fail("System Windows PowerShell returned invalid or oversized JSON")
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return fail("Failed to parse discovery result: %v", err)
	}
	if out.Format != featuresFormat {
		return fail("Failed to parse discovery result: format %q is not %q", out.Format, featuresFormat)
	}
	var fs Features
	for _, f := range []struct {
		name string
		dst  *string
	}{{FeatureHyperV, &fs.HyperV}, {FeatureSandbox, &fs.Sandbox}, {FeatureWSL, &fs.WSL}} {
		v, ok := out.Features[f.name]
		if !ok {
			return fail("Failed to parse discovery result: feature %q is missing", f.name)
		}
		if v != nil {
			*f.dst = strings.TrimSpace(*v)
		}
	}
	facts := Facts{Features: &fs, ExecutionStarted: true}
	for _, e := range out.Errors {
		if e = strings.TrimSpace(e); e != "" {
			facts.Errors = append(facts.Errors, e)
		}
	}
	// A feature left unknown must carry an error, even if the script forgot one.
	for _, f := range []struct{ name, state string }{{FeatureHyperV, fs.HyperV}, {FeatureSandbox, fs.Sandbox}, {FeatureWSL, fs.WSL}} {
		if f.state == "" && !mentions(facts.Errors, f.name) {
			facts.Errors = append(facts.Errors, fmt.Sprintf("Optional feature '%s' was not established", f.name))
		}
	}
	if r.ReturnCode == nil || *r.ReturnCode != 0 {
		code := "unknown"
		if r.ReturnCode != nil {
			code = fmt.Sprint(*r.ReturnCode)
		}
		facts.Errors = append(facts.Errors, fmt.Sprintf("Discovery process exited with code %s: %s", code, strings.TrimSpace(r.Stderr)))
	}
	return facts
}

func mentions(errs []string, s string) bool {
	for _, e := range errs {
		if strings.Contains(e, s) {
			return true
		}
	}
	return false
}
