package discovery

// derive computes the derived keys (docs/discovery.md, "Derived keys") from the facts. It
// is pure and never parsed back.
func (s Snapshot) derive() Snapshot {
	v, t, r, e := s.Virtualization, s.DevelopmentTools, s.Runtimes, s.Editors
	var d Snapshot
	d.ProbeStates = ProbeStates{
		HyperV:         ProbeState(v.HyperVAvailable),
		WSL:            ProbeState(v.WSLInstalled),
		WindowsSandbox: ProbeState(v.WindowsSandboxAvailable),
		DevDrive:       ProbeState(v.DevDriveEnabled),
		Winget:         ProbeState(t.WingetAvailable),
		Git:            ProbeState(t.GitAvailable),
	}
	d.AvailablePackageManagers = pick(
		named{"winget", t.WingetAvailable}, named{"chocolatey", t.ChocolateyAvailable}, named{"scoop", t.ScoopAvailable})
	d.AvailableRuntimes = pick(
		named{"python", r.Python.Available}, named{"node", r.Node.Available}, named{"rust", r.Rust.Available},
		named{"golang", r.Golang.Available}, named{"dotnet", r.Dotnet.Available})
	d.AvailableEditors = pick(
		named{"vscode", e.VisualStudioCode}, named{"visual-studio", e.VisualStudio}, named{"rider", e.JetBrainsRider},
		named{"pycharm", e.JetBrainsPyCharm}, named{"clion", e.JetBrainsCLion})
	// WSL is listed by wsl_available, the router's authority, while probe_states.wsl
	// follows wsl_installed (docs/discovery.md, "Derived keys"). A Dev Drive is never an
	// isolation option.
	d.AvailableIsolationOptions = pick(
		named{"hyper-v", v.HyperVAvailable}, named{"wsl", v.WSLAvailable}, named{"windows-sandbox", v.WindowsSandboxAvailable})
	return d
}

// Derived returns a copy of s with the derived keys filled in, as MarshalJSON emits them.
func (s Snapshot) Derived() Snapshot {
	d := s.derive()
	s = s.normalized()
	s.ProbeStates = d.ProbeStates
	s.AvailablePackageManagers = d.AvailablePackageManagers
	s.AvailableRuntimes = d.AvailableRuntimes
	s.AvailableEditors = d.AvailableEditors
	s.AvailableIsolationOptions = d.AvailableIsolationOptions
	return s
}

type named struct {
	name string
	t    *bool
}

// pick keeps, in order, the names whose tri-state is exactly true.
func pick(ns ...named) []string {
	out := []string{}
	for _, n := range ns {
		if IsTrue(n.t) {
			out = append(out, n.name)
		}
	}
	return out
}

// HasHyperV, HasWSL, HasWindowsSandbox and HasDevDrive are true only for an
// established true; null is neither present nor missing.
func (v Virtualization) HasHyperV() bool         { return IsTrue(v.HyperVAvailable) }
func (v Virtualization) HasWSL() bool            { return IsTrue(v.WSLInstalled) }
func (v Virtualization) HasWindowsSandbox() bool { return IsTrue(v.WindowsSandboxAvailable) }
func (v Virtualization) HasDevDrive() bool       { return IsTrue(v.DevDriveEnabled) }
