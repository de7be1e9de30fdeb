package discovery

// editorEvidence is the evidence that does not come from the search path: files and
// directories on Windows, the Docker engine probe everywhere (nil = not established).
type editorEvidence struct {
	DockerRunning *bool // a local Docker engine answers (docs/discovery.md, "Docker engine")
	VSCodeFile    *bool // <ProgramFiles>\Microsoft VS Code\Code.exe exists
	VisualStudio  *bool // devenv on the path, else vswhere
	Rider         *bool
	PyCharm       *bool
	CLion         *bool
}

// presence fills development_tools, runtimes, git and editors (docs/discovery.md,
// "Command presence") from the sanitized search path plus editor evidence. Runtimes never
// carry versions here: versions belong to tool_discover.
func presence(sp searchPath, ev editorEvidence) ToolFacts {
	git := sp.has("git")
	vscode := anyOf(sp.has("code"), ev.VSCodeFile)
	rt := func(cmd string) Runtime { return Runtime{Available: sp.has(cmd), Versions: []string{}} }
	return ToolFacts{
		Tools: DevelopmentTools{
			WingetAvailable:       sp.has("winget"),
			ChocolateyAvailable:   sp.has("choco"),
			ScoopAvailable:        sp.has("scoop"),
			GitAvailable:          git,
			DockerInstalled:       sp.has("docker"),
			DockerRunning:         clone(ev.DockerRunning),
			VSCodeAvailable:       vscode,
			VisualStudioAvailable: clone(ev.VisualStudio),
		},
		Runtimes: Runtimes{
			Python: rt("python"),
			Node:   rt("node"),
			Rust:   rt("rustc"),
			Golang: rt("go"),
			Dotnet: rt("dotnet"),
		},
		Git: Git{Available: clone(git)},
		Editors: Editors{
			VisualStudioCode: clone(vscode),
			VisualStudio:     clone(ev.VisualStudio),
			JetBrainsRider:   clone(ev.Rider),
			JetBrainsPyCharm: clone(ev.PyCharm),
			JetBrainsCLion:   clone(ev.CLion),
		},
	}
}

// unknownTools is the failure shape of docs/discovery.md, "Command presence": every
// presence field null.
func unknownTools() ToolFacts {
	rt := func() Runtime { return Runtime{Versions: []string{}} }
	return ToolFacts{Runtimes: Runtimes{Python: rt(), Node: rt(), Rust: rt(), Golang: rt(), Dotnet: rt()}}
}
