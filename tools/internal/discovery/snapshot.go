package discovery

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// SchemaVersion is the extra top-level version marker of the Go snapshot. Version 2
// replaced system.processor_count with logical_processors and processor_packages, and
// development_tools.docker_available with docker_installed and docker_running
// (docs/discovery.md, "Schema history").
const SchemaVersion = 2

// Snapshot is the canonical environment snapshot (docs/discovery.md, "Snapshot"). Field
// order is the key order on the wire. The derived fields (ProbeStates and the available_*
// lists) are computed by MarshalJSON and discarded by UnmarshalJSON: they are never
// parsed back, so a stale cache cannot contradict its own facts.
type Snapshot struct {
	SchemaVersion    int              `json:"schema_version"`
	Timestamp        Timestamp        `json:"timestamp"`
	Success          bool             `json:"success"`
	Errors           []string         `json:"errors"`
	System           System           `json:"system"`
	Virtualization   Virtualization   `json:"virtualization"`
	DevelopmentTools DevelopmentTools `json:"development_tools"`
	Runtimes         Runtimes         `json:"runtimes"`
	Git              Git              `json:"git"`
	Editors          Editors          `json:"editors"`

	ProbeStates               ProbeStates `json:"probe_states"`
	AvailablePackageManagers  []string    `json:"available_package_managers"`
	AvailableRuntimes         []string    `json:"available_runtimes"`
	AvailableEditors          []string    `json:"available_editors"`
	AvailableIsolationOptions []string    `json:"available_isolation_options"`
}

// System is docs/discovery.md, "system". These are not tri-states: an unknown value is
// the zero value plus an entry in Snapshot.Errors.
type System struct {
	OSName                string  `json:"os_name"`
	OSVersion             string  `json:"os_version"`
	OSBuild               string  `json:"os_build"`
	Architecture          string  `json:"architecture"`
	LogicalProcessors     int     `json:"logical_processors" jsonschema:"description=Logical processors the OS schedules on (hardware threads): the number to size parallel work by."`
	ProcessorPackages     int     `json:"processor_packages" jsonschema:"description=Physical processor packages (sockets); usually 1. Not a core or thread count."`
	ProcessorName         string  `json:"processor_name"`
	TotalPhysicalMemoryGB float64 `json:"total_physical_memory_gb"`
}

// Virtualization is docs/discovery.md, "virtualization".
type Virtualization struct {
	HyperVAvailable         *bool      `json:"hyper_v_available" jsonschema:"nullable"`
	HyperVState             string     `json:"hyper_v_state"`
	WSLInstalled            *bool      `json:"wsl_installed" jsonschema:"nullable"`
	WSLAvailable            *bool      `json:"wsl_available" jsonschema:"nullable"`
	WSLDefaultDistro        *string    `json:"wsl_default_distro" jsonschema:"nullable"`
	WSLVersion              *string    `json:"wsl_version" jsonschema:"nullable"`
	WSLDistros              []string   `json:"wsl_distros"`
	WindowsSandboxAvailable *bool      `json:"windows_sandbox_available" jsonschema:"nullable"`
	WindowsSandboxState     string     `json:"windows_sandbox_state"`
	DevDriveInventoryState  string     `json:"dev_drive_inventory_state"`
	DevDriveEnabled         *bool      `json:"dev_drive_enabled" jsonschema:"nullable"`
	DevDriveState           string     `json:"dev_drive_state"`
	DevDrives               []DevDrive `json:"dev_drives" jsonschema:"nullable"`
}

// DevDrive is one Dev Drive volume. Label is cosmetic, never identity.
type DevDrive struct {
	DriveLetter string  `json:"drive_letter"`
	Label       string  `json:"label"`
	SizeGB      float64 `json:"size_gb"`
	FreeSpaceGB float64 `json:"free_space_gb"`
}

// UsagePercent is (size − free)/size × 100, or 0 for a zero size.
func (d DevDrive) UsagePercent() float64 {
	if d.SizeGB == 0 {
		return 0
	}
	return (d.SizeGB - d.FreeSpaceGB) / d.SizeGB * 100
}

// DevelopmentTools is docs/discovery.md, "development_tools": presence only.
type DevelopmentTools struct {
	WingetAvailable       *bool `json:"winget_available" jsonschema:"nullable"`
	ChocolateyAvailable   *bool `json:"chocolatey_available" jsonschema:"nullable"`
	ScoopAvailable        *bool `json:"scoop_available" jsonschema:"nullable"`
	GitAvailable          *bool `json:"git_available" jsonschema:"nullable"`
	DockerInstalled       *bool `json:"docker_installed" jsonschema:"nullable,description=The docker command-line client is on PATH. Says nothing about an engine."`
	DockerRunning         *bool `json:"docker_running" jsonschema:"nullable,description=A local Docker engine answers (its socket or named pipe accepts a connection); null when not established\\, e.g. DOCKER_HOST names another host."`
	VSCodeAvailable       *bool `json:"vscode_available" jsonschema:"nullable"`
	VisualStudioAvailable *bool `json:"visual_studio_available" jsonschema:"nullable"`
}

// Runtime is one entry of docs/discovery.md, "runtimes". The broad snapshot never fills
// Version or Versions; versions belong to tool_discover.
type Runtime struct {
	Available *bool    `json:"available" jsonschema:"nullable"`
	Version   *string  `json:"version" jsonschema:"nullable"`
	Versions  []string `json:"versions"`
}

// Runtimes is docs/discovery.md, "runtimes".
type Runtimes struct {
	Python Runtime `json:"python"`
	Node   Runtime `json:"node"`
	Rust   Runtime `json:"rust"`
	Golang Runtime `json:"golang"`
	Dotnet Runtime `json:"dotnet"`
}

// Git is docs/discovery.md, "git". Git identity is deliberately never collected.
type Git struct {
	Available *bool   `json:"available" jsonschema:"nullable"`
	Version   *string `json:"version" jsonschema:"nullable"`
}

// Editors is docs/discovery.md, "editors".
type Editors struct {
	VisualStudioCode *bool `json:"visual_studio_code" jsonschema:"nullable"`
	VisualStudio     *bool `json:"visual_studio" jsonschema:"nullable"`
	JetBrainsRider   *bool `json:"jetbrains_rider" jsonschema:"nullable"`
	JetBrainsPyCharm *bool `json:"jetbrains_pycharm" jsonschema:"nullable"`
	JetBrainsCLion   *bool `json:"jetbrains_clion" jsonschema:"nullable"`
}

// ProbeStates is the derived probe_states object (docs/discovery.md, "Derived keys").
type ProbeStates struct {
	HyperV         string `json:"hyper_v" jsonschema:"enum=available,enum=missing,enum=unknown"`
	WSL            string `json:"wsl" jsonschema:"enum=available,enum=missing,enum=unknown"`
	WindowsSandbox string `json:"windows_sandbox" jsonschema:"enum=available,enum=missing,enum=unknown"`
	DevDrive       string `json:"dev_drive" jsonschema:"enum=available,enum=missing,enum=unknown"`
	Winget         string `json:"winget" jsonschema:"enum=available,enum=missing,enum=unknown"`
	Git            string `json:"git" jsonschema:"enum=available,enum=missing,enum=unknown"`
}

// wire is Snapshot without its methods, so encoding/json does the field work.
type wire Snapshot

// MarshalJSON emits every key in canonical order with the derived keys recomputed
// and every list as an array (never null), except dev_drives whose null is meaningful.
func (s Snapshot) MarshalJSON() ([]byte, error) {
	w := wire(s.normalized())
	w.SchemaVersion = SchemaVersion
	d := s.derive()
	w.ProbeStates = d.ProbeStates
	w.AvailablePackageManagers = d.AvailablePackageManagers
	w.AvailableRuntimes = d.AvailableRuntimes
	w.AvailableEditors = d.AvailableEditors
	w.AvailableIsolationOptions = d.AvailableIsolationOptions
	return json.Marshal(w)
}

// UnmarshalJSON reads only the known sections and keys; unknown keys are ignored and
// missing keys keep the defaults of an unestablished snapshot (nulls, "unknown", []).
// A missing success parses as false. Derived keys are discarded.
func (s *Snapshot) UnmarshalJSON(b []byte) error {
	w := wire(blank())
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Timestamp.IsZero() {
		return fmt.Errorf("snapshot has no timestamp")
	}
	*s = Snapshot(w).normalized()
	s.clearDerived()
	return nil
}

// Parse decodes a snapshot from JSON (cache or producer output).
func Parse(b []byte) (Snapshot, error) {
	var s Snapshot
	err := json.Unmarshal(b, &s)
	return s, err
}

// blank is the all-unknown snapshot used as the decoding base: missing sections take
// these defaults.
func blank() Snapshot {
	rt := func() Runtime { return Runtime{Versions: []string{}} }
	return Snapshot{
		SchemaVersion: SchemaVersion,
		Errors:        []string{},
		System:        System{OSName: UnknownOSName},
		Virtualization: Virtualization{
			HyperVState:            StateUnknown,
			WSLDistros:             []string{},
			WindowsSandboxState:    StateUnknown,
			DevDriveInventoryState: StateUnknown,
			DevDriveState:          StateUnknown,
		},
		Runtimes: Runtimes{Python: rt(), Node: rt(), Rust: rt(), Golang: rt(), Dotnet: rt()},
	}
}

// normalized returns s with nil lists made empty (dev_drives excepted: its null
// means "inventory not established"), empty state strings made "unknown", and the
// schema version set.
func (s Snapshot) normalized() Snapshot {
	s.SchemaVersion = SchemaVersion
	s.Errors = nonNil(s.Errors)
	v := &s.Virtualization
	v.WSLDistros = nonNil(v.WSLDistros)
	for _, p := range []*string{&v.HyperVState, &v.WindowsSandboxState, &v.DevDriveInventoryState, &v.DevDriveState} {
		if *p == "" {
			*p = StateUnknown
		}
	}
	for _, r := range []*Runtime{&s.Runtimes.Python, &s.Runtimes.Node, &s.Runtimes.Rust, &s.Runtimes.Golang, &s.Runtimes.Dotnet} {
		r.Versions = nonNil(r.Versions)
	}
	return s
}

func (s *Snapshot) clearDerived() {
	s.ProbeStates = ProbeStates{}
	s.AvailablePackageManagers = nil
	s.AvailableRuntimes = nil
	s.AvailableEditors = nil
	s.AvailableIsolationOptions = nil
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// IsWindows11 is true when the caption contains "11" or the build is at least 22000.
// An unparsable or empty build gives false without an error.
func (s System) IsWindows11() bool {
	if strings.Contains(s.OSName, "11") {
		return true
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s.OSBuild), 10, 32)
	return err == nil && n >= 22000
}

// IsWindows10 is true when the caption contains "10".
func (s System) IsWindows10() bool { return strings.Contains(s.OSName, "10") }
