// Command wda is Windows Dev Agent: the MCP server (`wda mcp`), the host hooks
// (`wda hook …`) and a few commands for humans (`wda env`, `wda plan`, `wda logs`,
// `wda tools`, `wda call`, `wda version`).
//
// stdout of `wda mcp` belongs to JSON-RPC alone; every diagnostic goes to stderr.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/windows-dev-agent/wda"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

const usage = `usage: wda <command> [arguments]

commands:
  mcp [--host HOST] [--data-dir DIR]                   serve MCP on stdio; HOST is claude,
                                                       codex, copilot, gemini, mcpb or generic
  hook claude|codex|copilot <event> [--data-dir DIR]   run a host hook (event JSON on stdin)
  env [--refresh] [--json]                             show the environment snapshot
  plan "TASK" [--cwd DIR] [--json]                     route a task to a capability
  logs [--last N] [--filter F] [--json]                show recent audit events
  tools [--json]                                       list the ten tools
  skills [NAME]                                        list the shared skills, or print one
  call TOOL [JSON]                                     run one tool and print its result
  version                                              print the version
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "hook":
		return runHook(rest, stdin, stdout, stderr, getenv)
	case "mcp":
		return runMCP(rest, stdin, stdout, stderr, getenv)
	case "env":
		return runEnv(rest, stdout, stderr, getenv)
	case "plan":
		return runPlan(rest, stdout, stderr, getenv)
	case "logs":
		return runLogs(rest, stdout, stderr, getenv)
	case "tools":
		return runTools(rest, stdout, stderr)
	case "call":
		return runCall(rest, stdout, stderr, getenv)
	case "skills":
		return runSkills(rest, stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintf(stdout, "%s %s\n", wda.ServerName, wda.Version)
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "wda: unknown command %q\n\n%s", cmd, usage)
	return 2
}
