//go:build !windows

package discovery

// dockerDefaultHost is the engine address the docker CLI uses off Windows when nothing
// names another.
const dockerDefaultHost = "unix:///var/run/docker.sock"

// dockerPipe is nil off Windows: there are no named pipes to open.
var dockerPipe func(name string) (*bool, error)
