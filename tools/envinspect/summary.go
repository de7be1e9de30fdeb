package envinspect

import (
	"encoding/json"
	"strings"

	"github.com/windows-dev-agent/wda/tools/internal/discovery"
)

// The summary is what env_inspect returns unless detail is "full": the snapshot with
// the keys that restate another key or are never filled left out, so the model reads
// each fact once (docs/tools/env_inspect.md, "Summary"). Every key it keeps has the
// canonical snapshot's name, type and meaning, so the output schema of the snapshot
// describes both views. Left out:
//   - schema_version and success (status says whether the snapshot succeeded);
//   - errors when there are none;
//   - the derived keys probe_states and available_* (each restates tri-states);
//   - runtimes.*.version, runtimes.*.versions, git.version, wsl_version (never filled:
//     versions are tool_discover's);
//   - development_tools.git_available, vscode_available and visual_studio_available
//     (discovery fills them from the same evidence as git.available,
//     editors.visual_studio_code and editors.visual_studio);
//   - system.os_build when it is os_version's third part (10.0.26100 and 26100);
//   - wsl_distros when empty;
//   - a state string that says only what its tri-state says: hyper_v_state and
//     windows_sandbox_state Enabled with true, Disabled with false, unknown with null;
//     dev_drive_state enabled with true, unknown with null (its disabled_by_… words
//     say why, so they stay);
//   - dev_drive_inventory_state, except when it is unknown and dev_drives is a list
//     (the list may then be partial).
type summary struct {
	Timestamp        discovery.Timestamp `json:"timestamp"`
	Errors           []string            `json:"errors,omitempty"`
	System           system              `json:"system"`
	Virtualization   virtualization      `json:"virtualization"`
	DevelopmentTools developmentTools    `json:"development_tools"`
	Runtimes         runtimes            `json:"runtimes"`
	Git              presence            `json:"git"`
	Editors          discovery.Editors   `json:"editors"`
}

type system struct {
	OSName                string  `json:"os_name"`
	OSVersion             string  `json:"os_version"`
	OSBuild               string  `json:"os_build,omitempty"`
	Architecture          string  `json:"architecture"`
	LogicalProcessors     int     `json:"logical_processors"`
	ProcessorPackages     int     `json:"processor_packages"`
	ProcessorName         string  `json:"processor_name"`
	TotalPhysicalMemoryGB float64 `json:"total_physical_memory_gb"`
}

type virtualization struct {
	HyperVAvailable         *bool                `json:"hyper_v_available"`
	HyperVState             string               `json:"hyper_v_state,omitempty"`
	WSLInstalled            *bool                `json:"wsl_installed"`
	WSLAvailable            *bool                `json:"wsl_available"`
	WSLDefaultDistro        *string              `json:"wsl_default_distro"`
	WSLDistros              []string             `json:"wsl_distros,omitempty"`
	WindowsSandboxAvailable *bool                `json:"windows_sandbox_available"`
	WindowsSandboxState     string               `json:"windows_sandbox_state,omitempty"`
	DevDriveInventoryState  string               `json:"dev_drive_inventory_state,omitempty"`
	DevDriveEnabled         *bool                `json:"dev_drive_enabled"`
	DevDriveState           string               `json:"dev_drive_state,omitempty"`
	DevDrives               []discovery.DevDrive `json:"dev_drives"`
}

type developmentTools struct {
	WingetAvailable     *bool `json:"winget_available"`
	ChocolateyAvailable *bool `json:"chocolatey_available"`
	ScoopAvailable      *bool `json:"scoop_available"`
	DockerInstalled     *bool `json:"docker_installed"`
	DockerRunning       *bool `json:"docker_running"`
}

// presence is a runtime or git without the version keys the snapshot never fills.
type presence struct {
	Available *bool `json:"available"`
}

type runtimes struct {
	Python presence `json:"python"`
	Node   presence `json:"node"`
	Rust   presence `json:"rust"`
	Golang presence `json:"golang"`
	Dotnet presence `json:"dotnet"`
}

// summarize is s's summary. It reads s through its canonical encoding's rules (the
// lists never null but dev_drives, state strings never empty), which Parse and the
// producers guarantee.
func summarize(s discovery.Snapshot) summary {
	v := s.Virtualization
	// state is st unless it says only what t says: enabled with true, disabled with
	// false, unknown with null.
	state := func(st string, t *bool, enabled, disabled string) string {
		switch {
		case st == "" || st == discovery.StateUnknown && t == nil:
			return ""
		case t != nil && *t && st == enabled, t != nil && !*t && st == disabled:
			return ""
		}
		return st
	}
	inventory := ""
	if v.DevDriveInventoryState != discovery.StateAvailable && v.DevDrives != nil {
		inventory = discovery.StateUnknown
	}
	sys := system(s.System)
	if parts := strings.Split(sys.OSVersion, "."); len(parts) >= 3 && parts[2] == sys.OSBuild {
		sys.OSBuild = ""
	}
	d := s.DevelopmentTools
	r := s.Runtimes
	return summary{
		Timestamp: s.Timestamp,
		Errors:    s.Errors,
		System:    sys,
		Virtualization: virtualization{
			HyperVAvailable: v.HyperVAvailable, HyperVState: state(v.HyperVState, v.HyperVAvailable, "Enabled", "Disabled"),
			WSLInstalled: v.WSLInstalled, WSLAvailable: v.WSLAvailable, WSLDefaultDistro: v.WSLDefaultDistro,
			WSLDistros:              v.WSLDistros,
			WindowsSandboxAvailable: v.WindowsSandboxAvailable,
			WindowsSandboxState:     state(v.WindowsSandboxState, v.WindowsSandboxAvailable, "Enabled", "Disabled"),
			DevDriveInventoryState:  inventory,
			DevDriveEnabled:         v.DevDriveEnabled, DevDriveState: state(v.DevDriveState, v.DevDriveEnabled, "enabled", ""),
			DevDrives: v.DevDrives,
		},
		DevelopmentTools: developmentTools{WingetAvailable: d.WingetAvailable, ChocolateyAvailable: d.ChocolateyAvailable,
			ScoopAvailable: d.ScoopAvailable, DockerInstalled: d.DockerInstalled, DockerRunning: d.DockerRunning},
		Runtimes: runtimes{Python: presence{r.Python.Available}, Node: presence{r.Node.Available}, Rust: presence{r.Rust.Available},
			Golang: presence{r.Golang.Available}, Dotnet: presence{r.Dotnet.Available}},
		Git:     presence{s.Git.Available},
		Editors: s.Editors,
	}
}

// MarshalJSON encodes o with its snapshot in the view the call asked for.
func (o Out) MarshalJSON() ([]byte, error) {
	type plain Out // without this method
	if o.full || o.Snapshot == nil {
		return json.Marshal(plain(o))
	}
	return json.Marshal(struct {
		plain
		Snapshot summary `json:"snapshot"`
	}{plain(o), summarize(*o.Snapshot)})
}
