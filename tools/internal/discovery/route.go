package discovery

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// RouteState is the static WSL route decision (docs/discovery.md, "WSL route state").
// Available is nil when the state could not be established (the route is then "unknown"),
// false when WSL cannot be targeted ("unavailable").
type RouteState struct {
	Available           *bool
	DefaultDistribution string
	Reason              string
}

// routeDeps are the authorities the route check reads. wslExe is proc.SystemBinary
// for wsl.exe on Windows.
type routeDeps struct {
	reg    Registry
	wslExe func() (string, error)
}

func unknownRoute(format string, a ...any) RouteState {
	return RouteState{Reason: fmt.Sprintf(format, a...)}
}

func noRoute(reason string) RouteState { return RouteState{Available: False(), Reason: reason} }

// wslRoute evaluates the route in the fixed order of docs/discovery.md,
// "WSL route state". It never launches wsl.exe: every authority is static (file system
// and registry).
func wslRoute(d routeDeps) RouteState {
	// (1) the Windows-owned executable, as an absolute regular file.
	exe, err := d.wslExe()
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return noRoute("The Windows-owned WSL executable is not available")
	case err != nil:
		return unknownRoute("WSL executable state was not established: %v", err)
	case !filepath.IsAbs(exe):
		return noRoute("The Windows-owned WSL executable is not available")
	}
	// (2) machine policy AllowWSL.
	global, err := readPolicy(d.reg, "AllowWSL")
	if err != nil {
		return unknownRoute("WSL policy AllowWSL was not established: %v", err)
	}
	if IsFalse(global.Allowed()) {
		return noRoute("Windows policy disables WSL")
	}
	// (3) service registration: Store (WslService) or inbox (LxssManager).
	store, err := keyPresence(d.reg, keyStoreService)
	if err != nil {
		return unknownRoute("WSL service registration was not established: %v", err)
	}
	inbox, err := keyPresence(d.reg, keyInboxService)
	if err != nil {
		return unknownRoute("WSL service registration was not established: %v", err)
	}
	if !*store && !*inbox {
		return noRoute("No WSL service is registered (neither the Store WslService nor the inbox LxssManager)")
	}
	// (4) inbox-only WSL is subject to AllowInboxWSL; Store WSL is not.
	if !*store {
		p, err := readPolicy(d.reg, "AllowInboxWSL")
		if err != nil {
			return unknownRoute("WSL policy AllowInboxWSL was not established: %v", err)
		}
		if IsFalse(p.Allowed()) {
			return noRoute("Windows policy disables Inbox WSL and the Store WSL service is not registered")
		}
	}
	// (5) the current user's default distribution.
	inv, err := readInventory(d.reg)
	if err != nil {
		return unknownRoute("Registered WSL distribution state was not established: %v", err)
	}
	if !inv.Established {
		return unknownRoute("Registered WSL distribution state was not established")
	}
	if inv.Default == "" {
		return noRoute("No registered default WSL distribution is available")
	}
	// (6) WSL 1 policy for a version-1 (or unknown-version) default.
	if inv.DefaultVersion == 1 || inv.DefaultVersion == 0 {
		p, err := readPolicy(d.reg, "AllowWSL1")
		if err != nil {
			return unknownRoute("WSL policy AllowWSL1 was not established: %v", err)
		}
		if IsFalse(p.Allowed()) {
			if inv.DefaultVersion == 1 {
				return RouteState{Available: False(), DefaultDistribution: inv.Default,
					Reason: fmt.Sprintf("Windows policy disables WSL 1 and the default distribution %q uses WSL 1", inv.Default)}
			}
			return RouteState{DefaultDistribution: inv.Default,
				Reason: fmt.Sprintf("Windows policy disables WSL 1 and the default distribution %q WSL version is unknown (it might be WSL 1)", inv.Default)}
		}
	}
	// (7) routable.
	return RouteState{Available: True(), DefaultDistribution: inv.Default,
		Reason: fmt.Sprintf("WSL default distribution %q is registered and allowed by policy", inv.Default)}
}
