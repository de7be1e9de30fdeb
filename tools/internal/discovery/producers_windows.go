package discovery

import (
	"os"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// platformProducers on Windows: PowerShell for the optional features (first, so a
// missing PowerShell is the first error) and the native producer for the rest. They
// run concurrently.
func platformProducers(o Options) []Producer {
	return []Producer{
		PowerShellProducer{Runner: o.Runner, SystemBinary: proc.SystemBinary},
		nativeProducer{reg: winRegistry{}, runner: o.Runner, getenv: o.Getenv, cwd: os.Getwd, systemBinary: proc.SystemBinary,
			docker: dockerEngine{getenv: o.Getenv, defaultHost: dockerDefaultHost, timeout: DockerTimeout, openPipe: dockerPipe}.running},
	}
}
