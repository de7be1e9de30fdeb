package discovery

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Producer establishes some facts. Each producer owns a fixed set of sections and
// leaves the others nil; a failed probe records one error and leaves its fields
// unknown. Produce must not panic, but a panic is caught and becomes an error.
type Producer interface {
	Name() string
	Produce(ctx context.Context) Facts
}

// Facts is one producer's contribution. A nil section was not produced.
type Facts struct {
	System   *System
	Features *Features
	WSL      *WSLFacts
	DevDrive *DevDriveFacts
	Tools    *ToolFacts
	Errors   []string
	// ExecutionStarted is true when the producer actually launched a process.
	ExecutionStarted bool
}

// Feature identities (docs/discovery.md, "Windows: the PowerShell producer").
// Containers-DisposableVM is the wrong name and is never used.
const (
	FeatureHyperV  = "Microsoft-Hyper-V"
	FeatureSandbox = "Containers-DisposableClientVM"
	FeatureWSL     = "Microsoft-Windows-Subsystem-Linux"
)

// Features are the raw optional-feature state strings; "" means not established.
type Features struct {
	HyperV, Sandbox, WSL string
}

// featureAvailable is true exactly for Enabled; any other concrete state is false;
// an unestablished state is nil and reads "unknown".
func featureAvailable(state string) (*bool, string) {
	if state == "" || state == StateUnknown {
		return nil, StateUnknown
	}
	return Bool(state == "Enabled"), state
}

// DevDriveFacts are the FSCTL inventory and the OS enablement state (docs/discovery.md,
// "Dev Drive").
type DevDriveFacts struct {
	InventoryState string     // available | unknown
	Drives         []DevDrive // possibly partial when InventoryState is unknown
	Enabled        *bool
	State          string
}

// ToolFacts are the presence sections development_tools, runtimes, git and editors
// (docs/discovery.md, "Snapshot").
type ToolFacts struct {
	Tools    DevelopmentTools
	Runtimes Runtimes
	Git      Git
	Editors  Editors
}

// runAll runs producers concurrently (so PowerShell never delays the native probes)
// and returns their facts in producer order, which fixes the error order.
func runAll(ctx context.Context, ps []Producer) []Facts {
	out := make([]Facts, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					out[i] = Facts{Errors: []string{fmt.Sprintf("Unexpected discovery failure: %s producer: %v", p.Name(), r)}}
				}
			}()
			out[i] = p.Produce(ctx)
		}()
	}
	wg.Wait()
	return out
}

// Assemble merges facts into one canonical snapshot. For each section the first
// producer that supplied it wins; errors are concatenated in producer order; success
// is true only when there is no error. Missing sections keep their unknown defaults,
// so the shape never changes.
func Assemble(now time.Time, fs ...Facts) (Snapshot, bool) {
	var m Facts
	started := false
	for _, f := range fs {
		if m.System == nil {
			m.System = f.System
		}
		if m.Features == nil {
			m.Features = f.Features
		}
		if m.WSL == nil {
			m.WSL = f.WSL
		}
		if m.DevDrive == nil {
			m.DevDrive = f.DevDrive
		}
		if m.Tools == nil {
			m.Tools = f.Tools
		}
		m.Errors = append(m.Errors, f.Errors...)
		started = started || f.ExecutionStarted
	}
	s := blank()
	s.Timestamp = NewTimestamp(now)
	if m.System != nil {
		s.System = *m.System
	}
	v := &s.Virtualization
	var inboxFeature *bool
	if m.Features != nil {
		v.HyperVAvailable, v.HyperVState = featureAvailable(m.Features.HyperV)
		v.WindowsSandboxAvailable, v.WindowsSandboxState = featureAvailable(m.Features.Sandbox)
		inboxFeature, _ = featureAvailable(m.Features.WSL)
	}
	if m.WSL != nil {
		w := *m.WSL
		w.InboxFeature = inboxFeature
		v.WSLInstalled = w.Installed()
		v.WSLAvailable = w.Available()
		if w.Inventory.Established {
			v.WSLDistros = append([]string{}, w.Inventory.Distros...)
			if w.Inventory.Default != "" {
				d := w.Inventory.Default
				v.WSLDefaultDistro = &d
			}
		}
	}
	if d := m.DevDrive; d != nil {
		v.DevDriveInventoryState = d.InventoryState
		v.DevDrives = d.Drives
		v.DevDriveEnabled = d.Enabled
		v.DevDriveState = d.State
	}
	if t := m.Tools; t != nil {
		s.DevelopmentTools, s.Git, s.Editors = t.Tools, t.Git, t.Editors
		s.Runtimes = t.Runtimes
	}
	s.Errors = append([]string{}, m.Errors...)
	s.Success = len(s.Errors) == 0
	return s.normalized(), started
}
