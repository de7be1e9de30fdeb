package discovery

import (
	"github.com/windows-dev-agent/wda/internal/proc"
)

// WSLRoute is the static WSL route state (docs/discovery.md, "WSL route state"): the
// Windows-owned wsl.exe, the WSL policies and the current user's default distribution,
// read from the file system and the registry. It never launches wsl.exe.
func WSLRoute() RouteState {
	return wslRoute(routeDeps{reg: winRegistry{}, wslExe: func() (string, error) { return proc.SystemBinary("wsl.exe") }})
}
