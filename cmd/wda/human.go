package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/all"
)

const callUsage = `usage: wda call TOOL [JSON | -] [--args-file FILE] [--json] [--project DIR] [--data-dir DIR]

Runs one tool with JSON arguments and prints its JSON result, as an MCP client would
see it. The arguments come from the command line, from a file (--args-file FILE), or
from standard input (- or --args-file -); with none the tool gets {}.

In cmd.exe and PowerShell, prefer a file or a pipe: they need no quoting.
  PowerShell:  '{"capability":"test-go"}' | wda call capability_run -
  cmd.exe:     wda call capability_run --args-file args.json

A plan's execute_arguments is the argument object of its executing call; pass it
back unchanged to run exactly what was reviewed:
  sh:          wda call capability_run '{"capability":"test-go"}' > plan.json
               jq .execute_arguments plan.json | wda call capability_run -
  PowerShell:  $plan = '{"capability":"test-go"}' | wda call capability_run - | ConvertFrom-Json
               $plan.execute_arguments | ConvertTo-Json | wda call capability_run -
(wda run, wda install and wda sandbox do this for you, after asking.)

wda help TOOL lists a tool's arguments with their types, bounds and defaults.
`

// runCall is `wda call`: one tool, JSON in, JSON out.
func (c *cli) runCall(args []string) int {
	fs := newFlagSet("wda call")
	var f sessionFlags
	argsFile := fs.String("args-file", "", "")
	fs.BoolVar(&f.json, "json", true, "")
	fs.StringVar(&f.project, "project", "", "")
	fs.StringVar(&f.dataDir, "data-dir", "", "")
	pos, rest, err := parseFlags(fs, args)
	pos = append(pos, rest...)
	if errors.Is(err, flag.ErrHelp) {
		if len(pos) > 0 && lookupTool(pos[0]) != nil {
			writeToolHelp(c.stdout, lookupTool(pos[0]))
			return exitOK
		}
		fmt.Fprint(c.stdout, callUsage)
		return exitOK
	}
	if err != nil {
		return c.fail(exitUsage, "call: %s (see wda call --help)", flagError(err))
	}
	if len(pos) == 0 {
		fmt.Fprint(c.stderr, callUsage)
		return exitUsage
	}
	name := pos[0]
	t := lookupTool(name)
	if t == nil {
		return c.fail(exitUsage, "call: unknown tool %q; the tools are %s (see wda tools)", name, strings.Join(toolNames(), ", "))
	}
	var src []byte
	origin := "the command line"
	switch {
	case len(pos) > 2:
		return c.fail(exitUsage, "call %s: give the JSON arguments as one argument (quote it), or use --args-file FILE", name)
	case *argsFile != "" && len(pos) == 2:
		return c.fail(exitUsage, "call %s: give the arguments either on the command line or with --args-file, not both", name)
	case *argsFile != "":
		src, origin, err = readArgs(*argsFile, c.stdin, c.open)
	case len(pos) == 2 && pos[1] == "-":
		src, origin, err = readArgs("-", c.stdin, c.open)
	case len(pos) == 2:
		src = []byte(pos[1])
	default:
		src = []byte("{}")
	}
	if err != nil {
		return c.fail(exitUsage, "call %s: %v", name, err)
	}
	raw, err := parseArgs(src, origin)
	if err != nil {
		return c.fail(exitUsage, "call %s: %v", name, err)
	}
	for _, w := range escapeWarnings(raw) {
		fmt.Fprintf(c.stderr, "wda: warning: %s\n", w)
	}
	k, err := c.connect(f)
	if err != nil {
		return c.fail(exitUsage, "%v", err)
	}
	defer k.close()
	res, err := k.call("wda call "+name, name, raw)
	if err != nil {
		return c.callFailed(name, err)
	}
	out := structured(res)
	if res.IsError && out != nil && out["status"] == tools.StatusInvalidInput {
		// The result is also printed, for scripts; the message is repeated for people.
		printJSON(c.stdout, res)
		if project, ok := outsideProject(name, out); ok {
			return c.fail(exitNotDone, "call %s: invalid arguments: %s (the project is %s: --project DIR makes another folder the project)", name, str(out["error"]), project)
		}
		return c.fail(exitNotDone, "call %s: invalid arguments: %s (see wda help %s)", name, str(out["error"]), name)
	}
	printJSON(c.stdout, res)
	return exitFor(out)
}

func (c *cli) runTools(args []string) int {
	fs := newFlagSet("wda tools")
	asJSON := fs.Bool("json", false, "")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, "usage: wda tools [--json]\n\nLists the ten tools, the safety class of a call with default arguments, and the command that runs each.\n")
		return exitOK
	} else if err != nil || fs.NArg() > 0 {
		return c.fail(exitUsage, "usage: wda tools [--json]")
	}
	type row struct {
		Name     string `json:"name"`
		Safety   string `json:"safety"`
		ReadOnly bool   `json:"read_only"`
		Title    string `json:"title"`
		Command  string `json:"command,omitempty"`
	}
	var rows []row
	for _, t := range all.New(all.Config{}).Tools() {
		r := row{Name: t.Name(), Safety: string(t.Classify(tools.Args{})), ReadOnly: t.Annotations().ReadOnly, Title: t.Title()}
		if tc := commandFor(t.Name()); tc != nil {
			r.Command = "wda " + tc.name
		}
		rows = append(rows, r)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(rows, "", "  ")
		fmt.Fprintln(c.stdout, string(b))
		return exitOK
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tSAFETY (default args)\tCOMMAND\tTITLE")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Safety, r.Command, r.Title)
	}
	tw.Flush()
	fmt.Fprintln(c.stdout, "\nwda help TOOL shows a tool's arguments.")
	return exitOK
}

// runHelp is `wda help [COMMAND|TOOL]`.
func (c *cli) runHelp(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stdout, usage)
		return exitOK
	}
	if len(args) > 1 {
		return c.fail(exitUsage, "usage: wda help [COMMAND|TOOL]")
	}
	name := args[0]
	if tc := findToolCommand(name); tc != nil {
		tc.writeHelp(c.stdout)
		return exitOK
	}
	if t := lookupTool(name); t != nil {
		writeToolHelp(c.stdout, t)
		return exitOK
	}
	if h, ok := otherHelp[name]; ok {
		fmt.Fprint(c.stdout, h)
		return exitOK
	}
	return c.fail(exitUsage, "help: no command or tool %q (commands: see wda help; tools: %s)", name, strings.Join(toolNames(), ", "))
}

// writeToolHelp lists a tool's arguments as JSON names, with types, bounds, defaults
// and whether they are required, from its input schema.
func writeToolHelp(w io.Writer, t tools.Tool) {
	in := schema.In(t)
	fmt.Fprintf(w, "%s — %s\n\n%s\n", t.Name(), t.Title(), t.Description())
	fmt.Fprintf(w, "\nSafety: %s with default arguments, at most %s.", t.Classify(tools.Args{}), t.MaxClass())
	if t.PlanFirst() {
		fmt.Fprint(w, " Plan-first: execute:false (the default) returns a plan whose execute_arguments runs it.")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "\narguments (JSON):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tTYPE\tDEFAULT\tDESCRIPTION")
	for p := in.Properties.Oldest(); p != nil; p = p.Next() {
		s := p.Value
		typ := typeText(s)
		if slices.Contains(in.Required, p.Key) {
			typ += ", required"
		}
		if s.Pattern != "" {
			typ += ", pattern " + s.Pattern
		}
		def := defaultText(s)
		if def == "" {
			def = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", p.Key, typ, def, strings.TrimSpace(s.Description))
	}
	tw.Flush()
	if tc := commandFor(t.Name()); tc != nil {
		fmt.Fprintf(w, "\ncommand: %s (wda help %s)\n", tc.usageLine(), tc.name)
	}
	fmt.Fprintf(w, "raw call: wda call %s --args-file FILE (or - for standard input)\n", t.Name())
}
