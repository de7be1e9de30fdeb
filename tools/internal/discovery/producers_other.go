//go:build !windows

package discovery

import (
	"os"
	"runtime"
)

// platformProducers off Windows: the portable producer only.
func platformProducers(o Options) []Producer {
	d := dockerEngine{getenv: o.Getenv, defaultHost: dockerDefaultHost, timeout: DockerTimeout, openPipe: dockerPipe}
	return []Producer{portableProducer{goos: runtime.GOOS, getenv: o.Getenv, cwd: os.Getwd, system: systemFacts, docker: d.running}}
}
