package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/windows-dev-agent/wda/tools/packageinstall"
)

// Next steps in commands (docs/cli.md, "Next steps"). A tool's result names the call to
// make next for an MCP client: workflow_plan's next_tool, package_install's verify
// hint. A person at a terminal needs the same step as a wda command line to paste, so
// every next step the CLI prints goes through nextCommand, the one translation from a
// tool call (a name and its arguments) to a command line. The tools' outputs are
// unchanged; only the CLI's rendering speaks in commands.

// The views that print next steps translate them through the command table, so they
// are set here rather than in its initializer (which they would otherwise refer to).
func init() {
	findToolCommand("plan").render = renderPlan
	findToolCommand("search").render = renderSearch
	findToolCommand("list").render = renderInstalled
}

// commandOf names, for each tool, the command that makes a call of it with the given
// arguments. Most tools have one command; package_install has one per action and
// package_search a second one for the installed list. TestEveryToolHasACommand holds
// it to the registry and to every tool workflow_plan can name as next_tool.
var commandOf = map[string]func(args map[string]any) string{
	"env_inspect":    func(map[string]any) string { return "env" },
	"tool_discover":  func(map[string]any) string { return "discover" },
	"workflow_plan":  func(map[string]any) string { return "plan" },
	"capability_run": func(map[string]any) string { return "run" },
	"package_search": func(a map[string]any) string {
		if a["installed"] == true {
			return "list"
		}
		return "search"
	},
	"package_install": func(a map[string]any) string {
		switch a["action"] {
		case packageinstall.ActionUpgrade:
			return "upgrade"
		case packageinstall.ActionUninstall:
			return "uninstall"
		}
		return "install"
	},
	"sandbox_run":    func(map[string]any) string { return "sandbox" },
	"ecosystem_scan": func(map[string]any) string { return "scan" },
	"mcp_audit":      func(map[string]any) string { return "audit-mcp" },
	"logs_query":     func(map[string]any) string { return "logs" },
}

// stepContext is what a translation needs from the command that prints it: the
// project the call was bound to (a project argument equal to it is the default and is
// left out) and the session flags the person gave, which the next command needs too.
type stepContext struct {
	project string
	session sessionFlags
}

// nextCommand is the wda command line that makes the call tool(args), as argv
// (starting with "wda"). missing names required arguments the call does not have yet
// (next_tool.missing): each appears as its placeholder. An argument that no flag of the
// command can carry is an error: the step cannot be said as a command.
func nextCommand(tool string, args map[string]any, missing []string, sc stepContext) ([]string, error) {
	pick, ok := commandOf[tool]
	if !ok {
		return nil, fmt.Errorf("no command makes %s calls", tool)
	}
	tc := findToolCommand(pick(args))
	if tc == nil || tc.tool != tool {
		return nil, fmt.Errorf("%s: command %q does not call it", tool, pick(args))
	}
	t := lookupTool(tool)
	argv := []string{"wda", tc.name}
	if tc.positional != "" {
		switch v, ok := args[tc.positional]; {
		case ok:
			s, isString := v.(string)
			if !isString {
				return nil, fmt.Errorf("%s: %s is not a string", tool, tc.positional)
			}
			argv = append(argv, s)
		case slices.Contains(missing, tc.positional):
			argv = append(argv, tc.meta)
		}
	}
	flags := tc.flags(t)
	for _, prop := range sortedKeys(args) {
		v := args[prop]
		switch {
		case prop == tc.positional || prop == tc.rest:
			continue
		case tc.fixed[prop] != nil:
			if v != tc.fixed[prop] {
				return nil, fmt.Errorf("%s: wda %s always sends %s %v, not %v", tool, tc.name, prop, tc.fixed[prop], v)
			}
			continue
		case prop == t.ProjectArg() && sc.project != "" && v == sc.project:
			continue // the project itself: the default of every project argument
		}
		i := slices.IndexFunc(flags, func(f *argFlag) bool { return f.prop == prop })
		if i < 0 {
			return nil, fmt.Errorf("%s: no flag of wda %s sets %s", tool, tc.name, prop)
		}
		words, err := flagWords(flags[i], v)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", tool, prop, err)
		}
		argv = append(argv, words...)
	}
	for _, prop := range missing {
		if prop == tc.positional || args[prop] != nil {
			continue
		}
		if i := slices.IndexFunc(flags, func(f *argFlag) bool { return f.prop == prop }); i >= 0 {
			f := flags[i]
			argv = append(argv, "--"+f.name, placeholder(f.name, f.s, f.meta))
		}
	}
	if sc.session.project != "" {
		argv = append(argv, "--project", sc.session.project)
	}
	if sc.session.dataDir != "" {
		argv = append(argv, "--data-dir", sc.session.dataDir)
	}
	if tc.rest != "" {
		if extra := list(args[tc.rest]); len(extra) > 0 {
			argv = append(argv, "--")
			for _, e := range extra {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("%s: %s holds a %T", tool, tc.rest, e)
				}
				argv = append(argv, s)
			}
		}
	}
	return argv, nil
}

// flagWords are the command-line words that give flag f the value v.
func flagWords(f *argFlag, v any) ([]string, error) {
	name := "--" + f.name
	switch x := v.(type) {
	case bool:
		if x {
			return []string{name}, nil
		}
		return []string{name + "=false"}, nil
	case string:
		return []string{name, x}, nil
	case float64:
		if x != float64(int64(x)) {
			return nil, fmt.Errorf("%v is not an integer", x)
		}
		return []string{name, strconv.FormatInt(int64(x), 10)}, nil
	case int:
		return []string{name, strconv.Itoa(x)}, nil
	case []any:
		var out []string
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("a list item is a %T", e)
			}
			out = append(out, name, s)
		}
		return out, nil
	case []string:
		var out []string
		for _, s := range x {
			out = append(out, name, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("a %T has no command-line form", v)
}

// commandText is argv as one line to paste: arguments with spaces or quotes are
// double-quoted (quoteArg), which cmd.exe, PowerShell and sh all read.
func commandText(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = quoteArg(a)
	}
	return strings.Join(parts, " ")
}

// stepText is the command line of the call tool(args), or "" when it has none (a
// result this wda does not know how to say; the caller then says nothing rather than
// name a tool call).
func stepText(tool string, args map[string]any, sc stepContext) string {
	argv, err := nextCommand(tool, args, nil, sc)
	if err != nil {
		return ""
	}
	return commandText(argv)
}

// verifyStep is a package_install verify hint said in commands: the calls its "Next:"
// names, each with what it confirms.
type verifyStep struct {
	calls func(pkg, source string) [][]any // {tool, args} pairs
	then  string
}

// verifySteps are the package_install verify hints this CLI says in commands
// (TestVerifyHintsSayCommands holds every action's hint to it). A hint that is not
// here is printed as the tool wrote it.
var verifySteps = map[string]verifyStep{
	packageinstall.Verify: {
		calls: func(_, _ string) [][]any {
			return [][]any{{"env_inspect", map[string]any{"force_refresh": true}}, {"tool_discover", map[string]any{"category": "all"}}}
		},
		then: "to confirm the installed executable and its version, then check the task that needed the package.",
	},
	packageinstall.VerifyUpgrade: {
		calls: func(_, _ string) [][]any {
			return [][]any{{"env_inspect", map[string]any{"force_refresh": true}}, {"tool_discover", map[string]any{"category": "all"}}}
		},
		then: "to confirm the executable now reports the new version, then check the task that needed the package.",
	},
	packageinstall.VerifyUninstall: {
		calls: func(pkg, source string) [][]any {
			return [][]any{{"package_search", map[string]any{"installed": true, "query": pkg, "source": source}},
				{"tool_discover", map[string]any{"category": "all"}}}
		},
		then: "to confirm the manager no longer lists it and its executable is no longer found.",
	},
}

// verifyText is package_install's verify hint for people: its first sentence as the
// tool wrote it, then its next steps as commands.
func verifyText(out map[string]any, sc stepContext) string {
	hint, _ := out["verify"].(string)
	step, ok := verifySteps[hint]
	if !ok {
		return hint
	}
	lead, _, _ := strings.Cut(hint, " Next: ")
	var cmds []string
	for _, c := range step.calls(str(out["package_id"]), str(out["source"])) {
		if text := stepText(c[0].(string), c[1].(map[string]any), sc); text != "" {
			cmds = append(cmds, text)
		}
	}
	return lead + " Next: " + strings.Join(cmds, ", or ") + " " + step.then
}

// managerHelp says how to get a package manager that is not installed, and how to ask
// the others instead: the package_search call args (a search, or the installed list)
// with each other source.
func managerHelp(source string, args map[string]any, sc stepContext) []string {
	var lines []string
	switch source {
	case "winget":
		lines = append(lines, "WinGet comes with Microsoft's App Installer. Where App Installer is installed but winget is not yet registered, run in PowerShell: Add-AppxPackage -RegisterByFamilyName -MainPackage Microsoft.DesktopAppInstaller_8wekyb3d8bbwe; otherwise install App Installer from the Microsoft Store.")
	case "chocolatey":
		lines = append(lines, "Chocolatey installs from an administrator PowerShell with the command on https://chocolatey.org/install.")
	case "scoop":
		lines = append(lines, "Scoop installs from a PowerShell that is not elevated: irm get.scoop.sh | iex (https://scoop.sh).")
	}
	var others []string
	for _, s := range []string{"winget", "chocolatey", "scoop"} {
		if s == source {
			continue
		}
		call := maps.Clone(args)
		call["source"] = s
		if text := stepText("package_search", call, sc); text != "" {
			others = append(others, text)
		}
	}
	if len(others) > 0 {
		lines = append(lines, "Or ask another package manager (their ids differ): "+strings.Join(others, ", or ")+"; wda env shows which are installed.")
	}
	return lines
}

// toolHelp is the next step for a capability whose tools are not installed: find each
// tool's package, then install it.
func toolHelp(toolNames []string, sc stepContext) string {
	var cmds []string
	for _, n := range toolNames {
		if text := stepText("package_search", map[string]any{"query": n}, sc); text != "" {
			cmds = append(cmds, text)
		}
	}
	if len(cmds) == 0 {
		return ""
	}
	return "Next: install the tool: " + strings.Join(cmds, ", or ") + ", then wda install ID with an id from its list."
}
