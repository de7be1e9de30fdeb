//go:build !windows

package discovery

import (
	"context"
	"fmt"
)

// portableProducer is the Linux/macOS producer: the system facts the OS gives,
// command presence from the sanitized PATH, and every Windows-only fact null with one
// error naming the platform. It is portable code so Linux tests exercise it on any OS.
type portableProducer struct {
	goos   string
	getenv func(string) string
	cwd    func() (string, error)
	system func() (System, error)
	// docker probes the Docker engine; nil leaves docker_running unknown.
	docker func(context.Context) (*bool, error)
}

// Name implements Producer.
func (portableProducer) Name() string { return "portable" }

// platformError is the one error of an off-Windows snapshot.
func platformError(goos string) string {
	return fmt.Sprintf("Windows-only facts (Hyper-V, WSL, Windows Sandbox, Dev Drive, Visual Studio, JetBrains editors) were not established: this host runs %s, not Windows", goos)
}

// Produce implements Producer.
func (p portableProducer) Produce(ctx context.Context) Facts {
	var f Facts
	sys, err := p.system()
	if err != nil {
		sys = System{OSName: UnknownOSName}
		f.Errors = append(f.Errors, "System information was not established: "+err.Error())
	}
	f.System = &sys
	tools := unknownTools()
	if cwd, err := p.cwd(); err != nil {
		f.Errors = append(f.Errors, "Executable search authority was not established: "+err.Error())
	} else {
		// VS Code's `code` launcher is a real fact here; the Windows install-folder
		// evidence does not exist, so it counts as established absent.
		ev := editorEvidence{VSCodeFile: False()}
		if p.docker != nil {
			var err error
			if ev.DockerRunning, err = p.docker(ctx); err != nil {
				f.Errors = append(f.Errors, err.Error())
			}
		}
		tools = presence(newSearchPath(p.getenv, cwd, false), ev)
	}
	f.Tools = &tools
	f.Errors = append(f.Errors, platformError(p.goos))
	return f
}
