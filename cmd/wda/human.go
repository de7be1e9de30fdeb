package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/all"
	"github.com/windows-dev-agent/wda/tools/logsquery"
)

// parseInterspersed parses flags that may come before or after positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// invoke runs one tool for a human command and prints either the raw JSON (--json) or
// what render makes of it.
func invoke(stdout, stderr io.Writer, getenv func(string) string, name string, args map[string]any, asJSON bool, render func(io.Writer, map[string]any)) int {
	s, err := newSession("generic", config.Flags{}, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "wda: %v\n", err)
		return 2
	}
	raw, _ := json.Marshal(args)
	res, err := callTool(context.Background(), s, name, raw)
	if err != nil {
		fmt.Fprintf(stderr, "wda: %s: %v\n", name, err)
		return 1
	}
	out := structured(res)
	if asJSON || render == nil || out == nil {
		printResult(stdout, res)
		return exitFor(out)
	}
	render(stdout, out)
	return exitFor(out)
}

func printResult(w io.Writer, res *mcp.CallToolResult) {
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			fmt.Fprintln(w, tc.Text)
		}
	}
}

// exitFor maps a domain status to an exit code for scripts: refusals and failures are 1.
func exitFor(out map[string]any) int {
	switch out["status"] {
	case "invalid_input", "failed", "blocked", "stale_plan", "unknown_capability", "configuration_error":
		return 1
	}
	return 0
}

func runCall(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || len(args) > 2 {
		fmt.Fprintln(stderr, "usage: wda call TOOL [JSON]")
		return 2
	}
	raw := json.RawMessage("{}")
	if len(args) == 2 {
		raw = json.RawMessage(args[1])
	}
	s, err := newSession("generic", config.Flags{}, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "wda: %v\n", err)
		return 2
	}
	res, err := callTool(context.Background(), s, args[0], raw)
	if err != nil {
		fmt.Fprintf(stderr, "wda call %s: %v\n", args[0], err)
		return 1
	}
	printResult(stdout, res)
	return exitFor(structured(res))
}

func runTools(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wda tools", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	type row struct {
		Name     string `json:"name"`
		Safety   string `json:"safety"`
		ReadOnly bool   `json:"read_only"`
		Title    string `json:"title"`
	}
	var rows []row
	for _, t := range all.New(all.Config{}).Tools() {
		rows = append(rows, row{t.Name(), string(t.Classify(tools.Args{})), t.Annotations().ReadOnly, t.Title()})
	}
	if *asJSON {
		b, _ := json.MarshalIndent(rows, "", "  ")
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tSAFETY (default args)\tTITLE")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Safety, r.Title)
	}
	tw.Flush()
	return 0
}

func runPlan(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("wda plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cwd := fs.String("cwd", "", "project directory (default: WINDOWS_DEV_AGENT_PROJECT_DIR or the current directory)")
	context := fs.String("context", "", "extra context for routing")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, `usage: wda plan "TASK" [--cwd DIR] [--json]`)
		return 2
	}
	a := map[string]any{"task": pos[0]}
	if *cwd != "" {
		a["cwd"] = *cwd
	}
	if *context != "" {
		a["context"] = *context
	}
	return invoke(stdout, stderr, getenv, "workflow_plan", a, *asJSON, renderPlan)
}

func runEnv(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("wda env", flag.ContinueOnError)
	fs.SetOutput(stderr)
	refresh := fs.Bool("refresh", false, "skip the five-minute cache")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	return invoke(stdout, stderr, getenv, "env_inspect", map[string]any{"force_refresh": *refresh}, *asJSON, renderEnv)
}

func runLogs(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("wda logs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	last := fs.Int("last", 20, "how many events (1-200)")
	filter := fs.String("filter", "all", "all, failures, installs, sandbox or approvals")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	return invoke(stdout, stderr, getenv, "logs_query", map[string]any{"last_n": *last, "filter": *filter}, *asJSON, renderLogs)
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return "-"
	case string:
		return x
	case map[string]any:
		if c, ok := x["capability"]; ok {
			return str(c)
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func renderPlan(w io.Writer, out map[string]any) {
	if out["status"] != "planned" {
		fmt.Fprintf(w, "status: %s\nerror:  %s\n", str(out["status"]), str(out["error"]))
		return
	}
	fmt.Fprintf(w, "Task:      %s\nProject:   %s\nSelection: %s\n", str(out["task"]), str(out["project_dir"]), str(out["selection_status"]))
	if out["selected_candidate"] != nil {
		sel, _ := out["selected_candidate"].(map[string]any)
		fmt.Fprintf(w, "Selected:  %s (tool %s, %s)\n", str(sel["capability"]), str(sel["available_tool"]), str(sel["safety_class"]))
	} else if out["matched_candidate"] != nil {
		fmt.Fprintf(w, "Matched:   %s (no configured tool available)\n", str(out["matched_candidate"]))
	}
	if rd, ok := out["route_discriminator"].(map[string]any); ok {
		fmt.Fprintf(w, "Why:       %s\n", str(rd["reason"]))
	}
	fmt.Fprintln(w, "\nCandidates (discriminating / identity / description):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	cands, _ := out["candidate_capabilities"].([]any)
	for _, c := range cands {
		m, _ := c.(map[string]any)
		fmt.Fprintf(tw, "  %s\t%v/%v/%v\t%s\ttool: %s\n", str(m["capability"]), m["discriminating_score"], m["identity_score"], m["description_score"], str(m["safety_class"]), str(m["available_tool"]))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nPhases:")
	phases, _ := out["phases"].([]any)
	for i, p := range phases {
		m, _ := p.(map[string]any)
		fmt.Fprintf(w, "  %d. %s [%s]: %s\n", i+1, str(m["phase"]), str(m["safety_class"]), str(m["action"]))
	}
}

func renderEnv(w io.Writer, out map[string]any) {
	snap, _ := out["snapshot"].(map[string]any)
	if snap == nil {
		fmt.Fprintf(w, "status: %s\nerror:  %s\n", str(out["status"]), str(out["error"]))
		return
	}
	fmt.Fprintf(w, "Status: %s (true = observed, false = observed absent, null = not established)\n", str(out["status"]))
	for _, section := range []string{"system", "virtualization", "development_tools", "git", "editors", "probe_states"} {
		m, ok := snap[section].(map[string]any)
		if !ok {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", section)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, k := range sortedKeys(m) {
			v := m[k]
			if v == nil {
				v = "null"
			}
			fmt.Fprintf(tw, "  %s\t%s\n", k, strings.TrimSpace(fmtVal(v)))
		}
		tw.Flush()
	}
	if errs, ok := snap["errors"].([]any); ok && len(errs) > 0 {
		fmt.Fprintln(w, "\nerrors:")
		for _, e := range errs {
			fmt.Fprintf(w, "  - %s\n", str(e))
		}
	}
}

// renderLogs prints events with logs_query's own text rendering, so the CLI and the tool
// cannot disagree about what a record means.
func renderLogs(w io.Writer, out map[string]any) {
	var typed logsquery.Out
	b, _ := json.Marshal(out)
	if err := json.Unmarshal(b, &typed); err != nil {
		fmt.Fprintf(w, "unreadable logs_query result: %v\n", err)
		return
	}
	if err := logsquery.WriteText(w, typed); err != nil {
		fmt.Fprintf(w, "%v\n", err)
	}
}

func fmtVal(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
