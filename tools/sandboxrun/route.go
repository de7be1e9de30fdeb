package sandboxrun

import (
	"fmt"
	"strings"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/tools"
)

// Backends and the fixed requirement → backend mapping (docs/tools/sandbox_run.md).
const (
	envAuto           = "auto"
	envWSL            = "wsl"
	envDevContainer   = "dev_container"
	envWindowsSandbox = "windows_sandbox"

	reqLinux     = "linux_compatibility"
	reqReproduce = "project_reproducibility"
	reqUntrusted = "untrusted_windows"
)

var backendFor = map[string]string{
	reqLinux:     envWSL,
	reqReproduce: envDevContainer,
	reqUntrusted: envWindowsSandbox,
}

// Windows-owned binaries, always from the Windows system directory.
const (
	wslExe     = "wsl.exe"
	sandboxExe = "WindowsSandbox.exe"
)

// devContainerConfigs are the configurations that make a project reproducible; a bare
// .devcontainer folder is not one of them.
var devContainerConfigs = []string{".devcontainer/devcontainer.json", ".devcontainer.json"}

const devContainerUnavailable = "A configured Dev Container and devcontainer CLI are required for project_reproducibility"

// route is step 3: the backend and its executable, or a refusal.
type route struct {
	backend string
	exe     string
}

func (d Deps) route(env *tools.Env, proj *tools.Project, requirement, requested string) (route, *tools.Status) {
	refuse := func(status, format string, a ...any) (route, *tools.Status) {
		return route{}, &tools.Status{Status: status, Error: fmt.Sprintf(format, a...)}
	}
	if strings.TrimSpace(requirement) == "" {
		return refuse("invalid_input", "isolation_requirement is required for every sandbox_run request (linux_compatibility, project_reproducibility or untrusted_windows)")
	}
	backend, ok := backendFor[requirement]
	if !ok {
		return refuse("invalid_input", "isolation_requirement %q is not supported (linux_compatibility, project_reproducibility or untrusted_windows)", requirement)
	}
	switch requested {
	case envAuto, backend:
	case envWSL, envDevContainer, envWindowsSandbox:
		return refuse("invalid_input", "environment %s does not satisfy isolation_requirement %s; the required backend is %s", requested, requirement, backend)
	default:
		return refuse("invalid_input", "environment %q is not supported (auto, wsl, dev_container or windows_sandbox)", requested)
	}
	switch backend {
	case envWSL:
		st := d.WslRoute()
		switch {
		case st.Available == nil:
			return refuse("unknown", "WSL route state was not established: %s", st.Reason)
		case !*st.Available:
			return refuse("unavailable", "WSL is not available: %s", st.Reason)
		}
		exe, err := d.SystemBinary(wslExe)
		if err != nil {
			return refuse("unavailable", "The Windows-owned WSL executable is not available: %v", err)
		}
		return route{backend, exe}, nil
	case envDevContainer:
		configured := false
		for _, rel := range devContainerConfigs {
			e, err := d.GuardCheck(proj, rel)
			if err != nil {
				return refuse("invalid_input", "%v", err)
			}
			// The walk from the held workspace proved no link on the way and named the
			// kind; a folder named devcontainer.json is not a configuration.
			if e.Exists && e.Kind == guard.KindFile {
				configured = true
			}
		}
		exe, found := d.Resolve(env, "devcontainer")
		if !configured || !found {
			return refuse("unavailable", devContainerUnavailable)
		}
		return route{backend, exe}, nil
	default:
		exe, err := d.SystemBinary(sandboxExe)
		if err != nil {
			return refuse("unavailable", "Windows Sandbox (WindowsSandbox.exe) is not available: %v", err)
		}
		return route{backend, exe}, nil
	}
}

// argv is step 6: the exact argv of each backend. The Sandbox config path does not
// exist until execute, so plans show a placeholder.
func argv(r route, ws, command, config string) []string {
	switch r.backend {
	case envWSL:
		return []string{r.exe, "--cd", ws, "--", "sh", "-lc", command}
	case envDevContainer:
		return []string{r.exe, "exec", "--workspace-folder", ws, "sh", "-lc", command}
	}
	return []string{r.exe, config}
}
