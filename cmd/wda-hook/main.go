// Command wda-hook is the hooks of Windows Dev Agent as a small binary of their own:
// `wda-hook claude pre-tool-use …` does exactly what `wda hook claude pre-tool-use …`
// does. Hosts start it on every tool call, so it links only the hook path (the shipped
// tools' generated table, the classifier, the audit log), never the MCP SDK or the
// tool packages; a test keeps it that way (docs/architecture.md, "Two binaries").
package main

import (
	"os"
	"runtime/debug"

	"github.com/windows-dev-agent/wda/host/hook"
)

// heapLimit is where the collector starts in a hook process. A hook answers one event
// and exits; the most any hook keeps is a Stop summary of a full log (about 12 MB), so
// below this bound collecting garbage only costs time the process is about to get back
// by exiting.
const heapLimit = 128 << 20

func main() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(heapLimit)
	os.Exit(hook.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
