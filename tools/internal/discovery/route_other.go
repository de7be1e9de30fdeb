//go:build !windows

package discovery

import "runtime"

// WSLRoute is the static WSL route state. Off Windows WSL cannot be targeted.
func WSLRoute() RouteState {
	return RouteState{Available: False(), Reason: "WSL is only available on Windows; this host runs " + runtime.GOOS}
}
