// Command wda is Windows Dev Agent: the MCP server (`wda mcp`), the host hooks
// (`wda hook …`) and the commands for people (`wda env`, `wda run`, `wda install`,
// `wda doctor`, …; docs/cli.md).
//
// stdout of `wda mcp` belongs to JSON-RPC alone; every diagnostic goes to stderr.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/windows-dev-agent/wda"
)

func main() {
	c := newCLI(context.Background(), os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	c.interrupts = true
	os.Exit(c.main(os.Args[1:]))
}

// run is main for tests: the streams are the caller's, never a terminal.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return newCLI(context.Background(), stdin, stdout, stderr, getenv).main(args)
}

const usage = `usage: wda <command> [arguments] [flags]

Everyday commands:
  env                       the environment: OS, runtimes and versions, editors, package managers, isolation
  plan TASK...              route a task to a catalog capability
  run CAPABILITY [-- ARGS]  plan a capability, confirm, run it
  search QUERY...           search WinGet, Chocolatey or Scoop
  install PACKAGE_ID        plan a package install (ID@VERSION: that version), confirm, run it
  upgrade PACKAGE_ID        plan a package upgrade, confirm, run it
  uninstall PACKAGE_ID      plan a package removal, confirm, run it
  list [FILTER]             installed packages (--upgrades: those with an upgrade available)
  sandbox COMMAND           plan a command in WSL, a Dev Container or Windows Sandbox, confirm, run it
  discover                  developer tools on PATH with their versions
  scan                      inventory VS Code, MCP and agent configuration
  audit-mcp                 audit MCP server configurations
  logs                      recent audit events (--filter failures shows what failed or was refused)
  doctor                    check the installed plugins (Claude Code, Codex, Copilot CLI, Gemini CLI)

More:
  tools                     the ten tools and their commands
  call TOOL [JSON | -]      run one tool with JSON arguments (--args-file FILE for cmd.exe and PowerShell)
  skills [NAME]             list the shared skills, or print one
  help [COMMAND|TOOL]       help on a command, or a tool's arguments
  version                   print the version
  mcp [--host HOST] [--data-dir DIR] [--project DIR]
                            serve MCP on stdio (hosts start this); HOST is claude, codex,
                            copilot, gemini, mcpb or generic
  serve --http HOST:PORT --root DIR (--token-file FILE | --no-auth)
                            serve MCP over Streamable HTTP for a remote client (docs/remote.md)
  hook claude|codex|copilot EVENT
                            run a host hook (hosts start this)

Every command takes -h/--help; the tool commands take --json, --project DIR and --data-dir DIR.
Exit codes: 0 done, 1 not done (refused, failed, unavailable, declined), 2 usage error.
`

var otherHelp = map[string]string{
	"call":    callUsage,
	"doctor":  doctorUsage,
	"version": "usage: wda version\n\nPrints the version of this binary; a release binary adds the source commit and Go version it was built from.\n",
	"skills":  "usage: wda skills [NAME]\n\nLists the shared skills (the plugins ship them to the hosts), or prints one SKILL.md.\n",
	"tools":   "usage: wda tools [--json]\n\nLists the ten tools, the safety class of a call with default arguments, and the command that runs each.\n",
	"mcp":     "usage: wda mcp [--host claude|codex|copilot|gemini|mcpb|generic] [--data-dir DIR] [--project DIR]\n\nServes the ten tools over MCP on standard input and output. Hosts start this; stdout carries JSON-RPC only.\n",
	"hook":    "usage: wda hook claude|codex|copilot EVENT [--data-dir DIR]\n\nRuns a host hook with the event JSON on standard input. Hosts start this from the plugin's hooks file.\n",
	"help":    "usage: wda help [COMMAND|TOOL]\n\nHelp on a command (its flags, with types, bounds and defaults), or a tool's JSON arguments.\n",
}

// isHelp reports a request for help among args.
func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "--help", "-help":
			return true
		case "--":
			return false
		}
	}
	return false
}

func (c *cli) main(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	if tc := findToolCommand(cmd); tc != nil {
		return c.runToolCommand(tc, rest)
	}
	switch cmd {
	case "hook":
		if isHelp(rest) {
			fmt.Fprint(c.stdout, otherHelp["hook"])
			return exitOK
		}
		return runHook(rest, c.stdin, c.stdout, c.stderr, c.getenv)
	case "mcp":
		if isHelp(rest) {
			fmt.Fprint(c.stdout, otherHelp["mcp"])
			return exitOK
		}
		return runMCP(rest, c.stdin, c.stdout, c.stderr, c.getenv)
	case "serve":
		if isHelp(rest) {
			fmt.Fprint(c.stdout, serveUsage)
			return exitOK
		}
		return serveMain(rest, c.stderr, c.getenv)
	case "tools":
		return c.runTools(rest)
	case "call":
		return c.runCall(rest)
	case "doctor":
		return c.runDoctor(rest)
	case "skills":
		if isHelp(rest) {
			fmt.Fprint(c.stdout, otherHelp["skills"])
			return exitOK
		}
		return runSkills(rest, c.stdout, c.stderr)
	case "version", "--version", "-v":
		if isHelp(rest) {
			fmt.Fprint(c.stdout, otherHelp["version"])
			return exitOK
		}
		fmt.Fprintf(c.stdout, "%s %s%s\n", wda.ServerName, wda.Version, buildSource())
		return exitOK
	case "help", "--help", "-h":
		if cmd == "help" && isHelp(rest) {
			fmt.Fprint(c.stdout, otherHelp["help"])
			return exitOK
		}
		return c.runHelp(rest)
	}
	hint := ""
	if lookupTool(cmd) != nil {
		hint = fmt.Sprintf(" (%s is a tool: wda call %s, or wda help %s)", cmd, cmd, cmd)
	} else if s := suggest(cmd); s != "" {
		hint = fmt.Sprintf(" (did you mean wda %s?)", s)
	}
	fmt.Fprintf(c.stderr, "wda: unknown command %q%s\n\n%s", cmd, hint, usage)
	return exitUsage
}

// suggest is the command closest to a mistyped one, "" when none is close.
func suggest(cmd string) string {
	names := []string{"tools", "call", "doctor", "skills", "version", "help", "mcp", "serve", "hook"}
	for _, tc := range toolCommands {
		names = append(names, tc.name)
	}
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(cmd), n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
