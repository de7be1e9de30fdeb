package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/all"
)

// toolCommand is a human command that calls one tool. Its flags are generated from
// the tool's input schema (docs/cli.md, "Flags"); the spec only names the friendly
// parts: which property the positional argument fills, which one takes the arguments
// after --, and shorter flag names where the property's name is long.
type toolCommand struct {
	name    string
	tool    string
	summary string
	// positional is the property the positional argument sets ("" for none); meta is
	// its placeholder in help. join: several words are joined with spaces (a task, a
	// query), so they need no quotes.
	positional, meta string
	join             bool
	optionalPos      bool
	// rest is the array property set by the arguments after "--".
	rest, restMeta string
	// rename maps a property to its flag name (default: the property with - for _);
	// metas names a flag's value placeholder.
	rename map[string]string
	metas  map[string]string
	// planFirst commands show the plan and run it only after a yes (docs/cli.md,
	// "Plan, confirm, run").
	planFirst bool
	// render is the human view of a result; nil prints the result as an outline.
	render func(v *view, out map[string]any)
	// enrich, when set, makes more calls for the human view (env adds versions); what
	// it returns is the view's extra.
	enrich func(k *client) map[string]any
	notes  string
	// fixed are arguments the command always sends and omit properties it never offers;
	// neither is a flag. adjust, when set, rewrites the parsed arguments (wda install
	// ID@VERSION); its error is a usage error (packages_cmd.go).
	fixed  map[string]any
	omit   []string
	adjust func(args map[string]any) error
	// explain: the command takes --explain, the full view of the result with the
	// evidence behind it (wda plan: detail "full"; planview.go).
	explain bool
}

var toolCommands = []*toolCommand{
	{name: "env", tool: "env_inspect", summary: "show the environment: OS, runtimes with versions, editors, package managers, isolation",
		rename: map[string]string{"force_refresh": "refresh"}, render: renderEnv, enrich: discoverVersions,
		// The human view shows the whole snapshot (isolation options, feature states),
		// which env_inspect's compact default leaves out (docs/tools/env_inspect.md).
		fixed: map[string]any{"detail": "full"},
		notes: "The human view adds each tool's path and version from tool_discover (that runs `git --version` and the like); --json prints env_inspect's snapshot alone."},
	{name: "discover", tool: "tool_discover", summary: "find developer tools on PATH with their versions",
		render: renderDiscover},
	{name: "plan", tool: "workflow_plan", summary: "route a task to a catalog capability", positional: "task", meta: "TASK", join: true,
		metas: map[string]string{"cwd": "DIR", "context": "TEXT"}, explain: true, omit: []string{"detail"}}, // render: planview.go
	{name: "run", tool: "capability_run", summary: "plan a catalog capability, confirm, run it", positional: "capability", meta: "CAPABILITY",
		rest: "extra_args", restMeta: "EXTRA_ARGS", rename: map[string]string{"timeout_seconds": "timeout"},
		metas: map[string]string{"cwd": "DIR", "timeout": "SECONDS"}, planFirst: true},
	// search does not offer the listing flags (wda list does).
	{name: "search", tool: "package_search", summary: "search WinGet, Chocolatey or Scoop", positional: "query", meta: "QUERY", join: true,
		omit: []string{"installed", "upgrades"}}, // render: nextsteps.go
	// install takes ID@VERSION and its action is fixed (packages_cmd.go).
	{name: "install", tool: "package_install", summary: "plan a package install, confirm, run it", positional: "package_id", meta: "PACKAGE_ID",
		planFirst: true, fixed: map[string]any{"action": "install"}, adjust: splitVersion,
		notes: "PACKAGE_ID@VERSION installs that exact version (wda install OpenJS.NodeJS.LTS@20.11.1)."},
	{name: "sandbox", tool: "sandbox_run", summary: "plan a command in WSL, a Dev Container or Windows Sandbox, confirm, run it",
		positional: "command", meta: "COMMAND",
		rename: map[string]string{"isolation_requirement": "isolation", "workspace_folder": "workspace", "payload_paths": "payload"},
		metas:  map[string]string{"workspace": "DIR", "payload": "PATH"}, planFirst: true,
		notes: "COMMAND is one argument: quote it (it runs under sh -lc in WSL and Dev Containers)."},
	{name: "scan", tool: "ecosystem_scan", summary: "inventory VS Code, MCP and agent configuration",
		metas: map[string]string{"cwd": "DIR"}},
	{name: "audit-mcp", tool: "mcp_audit", summary: "audit MCP server configurations", rename: map[string]string{"config_path": "config"},
		metas: map[string]string{"cwd": "DIR", "config": "FILE"}},
	{name: "logs", tool: "logs_query", summary: "show recent audit events", rename: map[string]string{"last_n": "last"},
		render: renderLogs},
	// The rest of the package lifecycle (packages_cmd.go).
	{name: "upgrade", tool: "package_install", summary: "plan a package upgrade, confirm, run it",
		positional: "package_id", meta: "PACKAGE_ID", planFirst: true,
		fixed: map[string]any{"action": "upgrade"}, adjust: splitVersion,
		notes: "PACKAGE_ID@VERSION upgrades to that exact version (WinGet and Chocolatey; Scoop's update takes none)."},
	{name: "uninstall", tool: "package_install", summary: "plan a package removal, confirm, run it",
		positional: "package_id", meta: "PACKAGE_ID", planFirst: true,
		fixed: map[string]any{"action": "uninstall"}, omit: []string{"version"}},
	{name: "list", tool: "package_search", summary: "list installed packages (--upgrades: those with an upgrade available)",
		positional: "query", meta: "FILTER", join: true, optionalPos: true,
		fixed: map[string]any{"installed": true},
		notes: "FILTER keeps the packages whose id or name contains it (ignoring case)."}, // render: nextsteps.go
}

func findToolCommand(name string) *toolCommand {
	for _, tc := range toolCommands {
		if tc.name == name {
			return tc
		}
	}
	return nil
}

// commandFor is the human command of a tool, nil when it has none.
func commandFor(tool string) *toolCommand {
	for _, tc := range toolCommands {
		if tc.tool == tool {
			return tc
		}
	}
	return nil
}

// described is the registry the commands read the tools' names, schemas and project
// arguments from, built once, when first needed: a command's flags, help and next
// steps look tools up many times.
var described = sync.OnceValue(func() *tools.Registry { return all.New(all.Config{}) })

// lookupTool finds a registered tool by name.
func lookupTool(name string) tools.Tool {
	t, _ := described().Lookup(name)
	return t
}

func toolNames() []string {
	var names []string
	for _, t := range described().Tools() {
		names = append(names, t.Name())
	}
	return names
}

// helpText is a flag's or argument's help where the tool's schema gives none: the
// schemas describe only what a name does not say to a model (docs/tools/), and a
// person reading --help needs a word more. Keys are "command.property" or
// "property" (every command). TestEveryFlagHasHelp holds every flag to it.
var helpText = map[string]string{
	"cwd":                    "a folder inside the project to work in (default: the project)",
	"task":                   "what you want done, in your own words",
	"context":                "more words that may change the route",
	"extra_args":             "arguments added to the command, each one as given (no shell)",
	"force_refresh":          "probe again instead of using the five-minute cache",
	"detail":                 "compact (the default) or full: every fact, including those another one implies",
	"environment":            "where it runs; auto takes the one the isolation maps to",
	"workspace_folder":       "the folder the command works in (default: the project)",
	"config_path":            "one more MCP configuration file to audit (.toml: a Codex config)",
	"search.query":           "what to search for",
	"list.query":             "keep the packages whose id or name contains it",
	"scan.include_host":      "also read your user-level extensions, plugins and MCP configurations",
	"audit-mcp.include_host": "also read your user-level MCP configurations",
	"include_packages":       "also list the installed WinGet packages (with --include-host)",
	"category":               "which group of tools to look for",
	"timeout_seconds":        "stop the run after this many seconds",
	"source":                 "the package manager",
	"version":                "that exact version (the manager must offer it)",
	"isolation_requirement":  "what the isolation is for: linux_compatibility (WSL), project_reproducibility (a Dev Container), untrusted_windows (Windows Sandbox)",
	"last_n":                 "how many of the newest matching events",
	"filter":                 "which events: failures (failed or refused), installs, sandbox runs, approvals, or all",
}

// describe is the help of property prop of the command: the schema's description,
// else helpText's.
func (tc *toolCommand) describe(prop string, s *schema.Schema) string {
	if d := strings.TrimSpace(s.Description); d != "" {
		return d
	}
	if d, ok := helpText[tc.name+"."+prop]; ok {
		return d
	}
	return helpText[prop]
}

// hiddenProp: the plan-first echo (execute, the expected_* identity of the executable
// and of a project task's definition) is the CLI's business, never a flag: execution
// always passes back the plan's execute_arguments.
func hiddenProp(p string) bool {
	return p == "execute" || strings.HasPrefix(p, "expected_")
}

func (tc *toolCommand) flagName(prop string) string {
	if n, ok := tc.rename[prop]; ok {
		return n
	}
	return strings.ReplaceAll(prop, "_", "-")
}

// flags generates the command's flags from the tool's input schema, in schema order.
func (tc *toolCommand) flags(t tools.Tool) []*argFlag {
	in := schema.In(t)
	var out []*argFlag
	for p := in.Properties.Oldest(); p != nil; p = p.Next() {
		_, fixed := tc.fixed[p.Key]
		if p.Key == tc.positional || p.Key == tc.rest || hiddenProp(p.Key) || fixed || slices.Contains(tc.omit, p.Key) {
			continue
		}
		name := tc.flagName(p.Key)
		out = append(out, &argFlag{name: name, prop: p.Key, meta: tc.metas[name], s: p.Value,
			required: slices.Contains(in.Required, p.Key)})
	}
	return out
}

// commonFlags are the flags of every tool-backed command.
func commonFlagRows(planFirst bool) [][2]string {
	var rows [][2]string
	if planFirst {
		rows = append(rows,
			[2]string{"--yes, -y", "run the plan without asking (for scripts)"},
			[2]string{"--plan", "only show the plan; run nothing"})
	}
	return append(rows,
		[2]string{"--json", "print the tool's JSON result instead of the text view"},
		[2]string{"--project DIR", "the project (default: WINDOWS_DEV_AGENT_PROJECT_DIR, else the nearest folder up from here with go.mod, package.json, .git or another project file); cwd-like arguments must stay inside it"},
		[2]string{"--data-dir DIR", "the data directory (default: WINDOWS_DEV_AGENT_DATA_DIR or the user cache directory)"},
		[2]string{"-h, --help", "show this help"})
}

// usageLine is the synopsis of the command.
func (tc *toolCommand) usageLine() string {
	u := "wda " + tc.name
	if tc.positional != "" {
		m := tc.meta
		if tc.join {
			m += "..."
		}
		if tc.optionalPos {
			m = "[" + m + "]"
		}
		u += " " + m
	}
	u += " [flags]"
	if tc.rest != "" {
		u += " [-- " + tc.restMeta + "...]"
	}
	return u
}

// writeHelp prints the command's help: synopsis, what it does, its arguments and flags
// with types, bounds and defaults from the schema.
func (tc *toolCommand) writeHelp(w io.Writer) {
	t := lookupTool(tc.tool)
	in := schema.In(t)
	fmt.Fprintf(w, "usage: %s\n\n%s.\n", tc.usageLine(), capitalize(tc.summary))
	fmt.Fprintf(w, "\nIt calls the tool %s: %s\n", t.Name(), t.Description())
	if tc.planFirst {
		fmt.Fprint(w, "\nIt shows the plan (argv, working directory, executable and its SHA-256), then asks \"Run this? [y/N]\" on a terminal; the run is bound to the reviewed executable. Without a terminal it needs --yes.\n")
	}
	if tc.notes != "" {
		fmt.Fprintf(w, "\n%s\n", tc.notes)
	}
	var args [][2]string
	for _, prop := range []struct{ name, meta string }{{tc.positional, tc.meta}, {tc.rest, tc.restMeta}} {
		if prop.name == "" {
			continue
		}
		s, _ := in.Properties.Get(prop.name)
		notes := []string{typeText(s)}
		if slices.Contains(in.Required, prop.name) {
			notes = append(notes, "required")
		}
		args = append(args, [2]string{prop.meta, fmt.Sprintf("%s (%s)", tc.describe(prop.name, s), strings.Join(notes, "; "))})
	}
	if len(args) > 0 {
		fmt.Fprintln(w, "\narguments:")
		writeFlagTable(w, args)
	}
	var rows [][2]string
	for _, f := range tc.flags(t) {
		l, r := f.help(tc.describe(f.prop, f.s))
		rows = append(rows, [2]string{l, r})
	}
	if tc.explain {
		rows = append(rows, [2]string{"--explain", "show every candidate with all its evidence and scores, not only those that decided"})
	}
	if len(rows) > 0 {
		fmt.Fprintln(w, "\nflags:")
		writeFlagTable(w, rows)
	}
	fmt.Fprintln(w, "\ncommon flags:")
	writeFlagTable(w, commonFlagRows(tc.planFirst))
	fmt.Fprintf(w, "\nSee also: wda help %s (the tool's arguments as JSON).\n", t.Name())
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parsed is a tool command line turned into tool arguments.
type parsed struct {
	args      map[string]any
	session   sessionFlags
	yes, plan bool
	explain   bool
}

// errHelp is a request for help; usageError is a command line that cannot be used.
var errHelp = errors.New("help requested")

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func (tc *toolCommand) parse(argv []string) (*parsed, error) {
	t := lookupTool(tc.tool)
	fs := newFlagSet("wda " + tc.name)
	p := &parsed{args: map[string]any{}}
	fs.BoolVar(&p.session.json, "json", false, "")
	fs.StringVar(&p.session.project, "project", "", "")
	fs.StringVar(&p.session.dataDir, "data-dir", "", "")
	if tc.planFirst {
		fs.BoolVar(&p.yes, "yes", false, "")
		fs.BoolVar(&p.yes, "y", false, "")
		fs.BoolVar(&p.plan, "plan", false, "")
	}
	if tc.explain {
		fs.BoolVar(&p.explain, "explain", false, "")
	}
	flags := tc.flags(t)
	for _, f := range flags {
		fs.Var(flagValue{f}, f.name, "")
	}
	pos, rest, err := parseFlags(fs, argv)
	if errors.Is(err, flag.ErrHelp) {
		return nil, errHelp
	}
	if err != nil {
		return nil, &usageError{flagError(err)}
	}
	if tc.rest == "" && rest != nil {
		pos = append(pos, rest...)
		rest = nil
	}
	switch {
	case tc.positional == "" && len(pos) > 0:
		return nil, &usageError{fmt.Sprintf("unexpected argument %q", pos[0])}
	case tc.positional != "" && len(pos) == 0 && !tc.optionalPos:
		return nil, &usageError{fmt.Sprintf("missing %s", tc.meta)}
	case tc.positional != "" && len(pos) > 1 && !tc.join:
		return nil, &usageError{fmt.Sprintf("%s is one argument, got %d: put it in quotes", tc.meta, len(pos))}
	case tc.positional != "" && len(pos) > 0:
		p.args[tc.positional] = strings.Join(pos, " ")
	}
	if tc.rest != "" && len(rest) > 0 {
		list := make([]any, len(rest))
		for i, r := range rest {
			list[i] = r
		}
		p.args[tc.rest] = list
	}
	in := schema.In(t)
	for _, f := range flags {
		if !f.set && slices.Contains(in.Required, f.prop) {
			l, _ := f.help("")
			return nil, &usageError{fmt.Sprintf("missing %s", l)}
		}
		if !f.set {
			continue
		}
		if list, ok := f.value.([]string); ok {
			vals := make([]any, len(list))
			for i, v := range list {
				vals[i] = v
			}
			p.args[f.prop] = vals
			continue
		}
		p.args[f.prop] = f.value
	}
	if p.yes && p.plan {
		return nil, &usageError{"--yes and --plan contradict each other: choose one"}
	}
	maps.Copy(p.args, tc.fixed)
	if _, full := schema.In(t).Properties.Get("detail"); p.explain && full {
		p.args["detail"] = "full"
	}
	if tc.adjust != nil {
		if err := tc.adjust(p.args); err != nil {
			return nil, &usageError{err.Error()}
		}
	}
	return p, nil
}

// flagError rewrites the flag package's messages in wda's words and spelling (--name).
func flagError(err error) string {
	msg := err.Error()
	dashes := func(name string) string { return "--" + strings.TrimLeft(name, "-") }
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "unknown flag " + dashes(name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return dashes(name) + " needs a value"
	}
	for _, prefix := range []string{"invalid value ", "invalid boolean value "} {
		if rest, ok := strings.CutPrefix(msg, prefix); ok {
			if _, after, ok := strings.Cut(rest, " for flag "); ok {
				if name, why, ok := strings.Cut(after, ": "); ok {
					if prefix == "invalid boolean value " {
						why = "want true or false"
					}
					return dashes(name) + ": " + why
				}
			}
		}
	}
	return msg
}

// runToolCommand is a tool-backed command from parsing to exit code.
func (c *cli) runToolCommand(tc *toolCommand, argv []string) int {
	p, err := tc.parse(argv)
	if errors.Is(err, errHelp) {
		tc.writeHelp(c.stdout)
		return exitOK
	}
	if err != nil {
		return c.fail(exitUsage, "%s: %v (see wda %s --help)", tc.name, err, tc.name)
	}
	k, err := c.connect(p.session)
	if err != nil {
		return c.fail(exitUsage, "%v", err)
	}
	defer k.close()
	if tc.planFirst {
		return c.apply(k, tc, p)
	}
	raw, _ := json.Marshal(p.args)
	res, err := k.call(c.label(tc, p.args), tc.tool, raw)
	if err != nil {
		return c.callFailed(tc.tool, err)
	}
	out := structured(res)
	if p.session.json || out == nil {
		printJSON(c.stdout, res)
		return exitFor(out)
	}
	v := c.newView(k, tc, p)
	if tc.enrich != nil && exitFor(out) == exitOK {
		v.extra = tc.enrich(k)
	}
	if tc.render != nil {
		tc.render(v, out)
	} else {
		renderOutline(v, out)
	}
	if h := containmentHint(v, out); h != "" {
		v.printf("%s\n", h)
	}
	return exitFor(out)
}

// label names a call on the progress line.
func (c *cli) label(tc *toolCommand, args map[string]any) string {
	l := "wda " + tc.name
	if tc.positional != "" {
		if s, _ := args[tc.positional].(string); s != "" {
			if r := []rune(s); len(r) > 30 {
				s = string(r[:29]) + "…"
			}
			l += " " + s
		}
	}
	return l
}
