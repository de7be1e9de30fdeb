// Command wda-hook is the hooks of Windows Dev Agent as a small binary of their own:
// `wda-hook claude pre-tool-use …` does exactly what `wda hook claude pre-tool-use …`
// does. Hosts start it on every tool call, so it links only the hook path (the shipped
// tools' generated table, the classifier, the audit log), never the MCP SDK or the
// tool packages; a test keeps it that way (docs/architecture.md, "Two binaries").
package main

import (
	"os"

	"github.com/windows-dev-agent/wda/host/hook"
)

func main() {
	os.Exit(hook.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}
