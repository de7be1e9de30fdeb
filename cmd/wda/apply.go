package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
)

// apply is plan, confirm, run (docs/cli.md, "Plan, confirm, run"): the tool plans, the
// plan is shown, and only a yes (typed on a terminal, or --yes) runs it, by calling the
// tool again with the plan's execute_arguments, so the run is bound to the executable
// and SHA-256 that were shown. If the executable changed in between, the tool refuses
// with stale_plan and nothing runs.
func (c *cli) apply(k *client, tc *toolCommand, p *parsed) int {
	raw, _ := json.Marshal(p.args)
	res, err := k.call(c.label(tc, p.args)+": planning", tc.tool, raw)
	if err != nil {
		return c.callFailed(tc.tool, err)
	}
	plan := structured(res)
	show := func() {
		if p.session.json {
			printJSON(c.stdout, res)
		} else {
			v := c.newView(k, tc, p)
			renderExecPlan(v, plan)
			if h := containmentHint(v, plan); h != "" {
				v.printf("%s\n", h)
			}
		}
	}
	if plan == nil || plan["status"] != "planned" {
		show()
		return exitNotDone
	}
	execArgs, ok := plan["execute_arguments"].(map[string]any)
	if !ok {
		show()
		fmt.Fprintf(c.stderr, "wda %s: this plan cannot be run: %s\n", tc.name, whyNotRunnable(plan))
		if plan["executable_resolved"] == false && plan["package_id"] != nil {
			for _, line := range managerHelp(str(plan["source"]), map[string]any{"query": str(plan["package_id"])}, c.newView(k, tc, p).sc) {
				fmt.Fprintf(c.stderr, "%s\n", line)
			}
		}
		return exitNotDone
	}
	if p.plan {
		show()
		if !p.session.json {
			fmt.Fprintf(c.stdout, "\nTo run it: %s --yes\n", strings.Join(c.rerun(tc, p), " "))
		}
		return exitOK
	}
	if !p.yes {
		if !c.tty.interactive {
			show()
			fmt.Fprintf(c.stderr, "wda %s: not run: there is no terminal to ask \"Run this? [y/N]\" on. Review the plan, then run it with --yes (or only plan with --plan).\n", tc.name)
			return exitNotDone
		}
		show()
		fmt.Fprintln(c.stdout)
		if !c.confirm("Run this? [y/N] ") {
			fmt.Fprintln(c.stderr, "Not run.")
			return exitNotDone
		}
		fmt.Fprintln(c.stdout)
	} else if !p.session.json {
		show()
		fmt.Fprintln(c.stdout)
	}
	raw, _ = json.Marshal(execArgs)
	res, err = k.call(c.label(tc, p.args), tc.tool, raw)
	if err != nil {
		return c.callFailed(tc.tool, err)
	}
	out := structured(res)
	if p.session.json || out == nil {
		printJSON(c.stdout, res)
	} else {
		renderExecResult(c.newView(k, tc, p), out)
	}
	return exitFor(out)
}

// confirm asks on stderr and reads one line from stdin: only y or yes is a yes.
func (c *cli) confirm(question string) bool {
	fmt.Fprint(c.stderr, question)
	line, err := bufio.NewReader(c.stdin).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(c.stderr)
		return false
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// rerun is the command line that repeats this one, for hints.
func (c *cli) rerun(tc *toolCommand, p *parsed) []string {
	parts := []string{"wda", tc.name}
	if s, _ := p.args[tc.positional].(string); s != "" {
		parts = append(parts, quoteArg(s))
	}
	t := lookupTool(tc.tool)
	for _, f := range tc.flags(t) {
		v, ok := p.args[f.prop]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case bool:
			if x {
				parts = append(parts, "--"+f.name)
			}
		case []any:
			for _, e := range x {
				parts = append(parts, "--"+f.name, quoteArg(str(e)))
			}
		default:
			parts = append(parts, "--"+f.name, quoteArg(str(x)))
		}
	}
	if p.session.project != "" {
		parts = append(parts, "--project", quoteArg(p.session.project))
	}
	if extra := list(p.args[tc.rest]); len(extra) > 0 {
		parts = append(parts, "--")
		for _, e := range extra {
			parts = append(parts, quoteArg(str(e)))
		}
	}
	return parts
}

// quoteArg quotes an argument with double quotes, which cmd.exe, PowerShell and sh all
// read, when it has spaces.
func quoteArg(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

func whyNotRunnable(plan map[string]any) string {
	switch {
	case plan["safety_class"] == "forbidden":
		return "the capability is classified forbidden"
	case plan["executable_resolved"] == false:
		return "the package manager is not installed"
	}
	return "the tool offered no execute_arguments"
}

// renderExecPlan shows a plan of capability_run, package_install or sandbox_run: what
// would run, where, and exactly which executable.
func renderExecPlan(v *view, out map[string]any) {
	if out["status"] != "planned" {
		renderStatus(v, out)
		if ct := list(out["checked_tools"]); len(ct) > 0 {
			v.printf("checked: %s\n", joinAny(ct))
			if out["status"] == "unavailable" {
				if h := toolHelp(strs(out["checked_tools"]), v.sc); h != "" {
					v.printf("%s\n", h)
				}
			}
		}
		if av := list(out["available"]); len(av) > 0 {
			v.printf("known capabilities: %s\n", joinAny(av))
		}
		if pt := list(out["project_tasks"]); len(pt) > 0 {
			v.printf("the project's tasks: %s\n", joinAny(pt))
		}
		return
	}
	ea := obj(out["execute_arguments"])
	var title string
	switch {
	case out["capability"] != nil:
		title = fmt.Sprintf("Plan: %s", str(out["capability"]))
		if d, _ := out["description"].(string); d != "" {
			title += " — " + d
		}
	case out["package_id"] != nil:
		title = fmt.Sprintf("Plan: %s %s with %s", packageAction(out), packageTarget(out), str(out["source"]))
	case out["isolation_requirement"] != nil:
		title = fmt.Sprintf("Plan: run in %s (%s)", str(out["environment"]), str(out["isolation_requirement"]))
	default:
		title = "Plan"
	}
	v.printf("%s\n\n", title)
	rows := [][]string{{"argv", argvText(list(out["argv"]))}}
	switch {
	case ea["cwd"] != nil:
		rows = append(rows, []string{"directory", str(ea["cwd"])})
	case out["project_dir"] != nil:
		rows = append(rows, []string{"directory", str(out["project_dir"])})
	case out["package_id"] != nil:
		rows = append(rows, []string{"directory", "the package manager's own folder"})
	}
	// The executable and its identity are the plan's, or (a plan that says each thing
	// once) those its execute_arguments echo.
	field := func(plain, echoed string) any {
		if v := out[plain]; v != nil {
			return v
		}
		return ea[echoed]
	}
	if exe := field("executable", "expected_executable"); exe == nil {
		rows = append(rows, []string{"executable", fmt.Sprintf("not installed (%s)", str(list(out["argv"])[0]))})
	} else {
		rows = append(rows,
			[]string{"executable", str(exe)},
			[]string{"sha256", fmt.Sprintf("%s (%s)", str(field("executable_identity_sha256", "expected_executable_identity_sha256")),
				str(field("executable_identity_kind", "expected_executable_identity_kind")))})
	}
	rows = append(rows, []string{"safety", str(out["safety_class"])})
	if pp := list(out["payload_paths"]); len(pp) > 0 {
		rows = append(rows, []string{"payload", joinAny(pp)})
	}
	if t, ok := ea["timeout_seconds"]; ok {
		rows = append(rows, []string{"timeout", fmt.Sprintf("%vs", t)})
	}
	v.table(rows)
	// The verify hint is for after a run: a plan that cannot run has none to give.
	if vh := verifyText(out, v.sc); vh != "" && out["executable_resolved"] != false {
		v.printf("\n%s\n", vh)
	}
}

// argvText renders argv one element per quoted word, so spaces inside an element show.
func argvText(argv []any) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		s := str(a)
		if s == "" || strings.ContainsAny(s, " \t\"") {
			b, _ := json.Marshal(s)
			s = string(b)
		}
		parts[i] = s
	}
	return strings.Join(parts, " ")
}

func joinAny(l []any) string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = str(e)
	}
	return strings.Join(parts, ", ")
}

// renderExecResult shows the outcome of a run: status, exit code, and the captured
// output tails.
func renderExecResult(v *view, out map[string]any) {
	status := str(out["status"])
	line := "status: " + status
	if rc, ok := out["returncode"].(float64); ok {
		line += fmt.Sprintf(" (exit code %d)", int(rc))
	}
	if out["timed_out"] == true {
		line += " (timed out)"
	}
	v.printf("%s\n", line)
	if e, _ := out["error"].(string); e != "" {
		v.printf("error:  %s\n", e)
	}
	if out["status"] == "stale_plan" {
		v.printf("Nothing ran: the executable is not the one that was reviewed. Run the command again to review the new plan.\n")
	}
	for _, s := range []struct{ key, trunc string }{{"stdout", "stdout_truncated"}, {"stderr", "stderr_truncated"}} {
		text, _ := out[s.key].(string)
		if strings.TrimSpace(text) == "" {
			continue
		}
		head := s.key
		if out[s.trunc] == true {
			head += " (last part only)"
		}
		v.printf("\n%s:\n%s", head, text)
		if !strings.HasSuffix(text, "\n") {
			v.printf("\n")
		}
	}
	if vh := verifyText(out, v.sc); vh != "" && out["status"] == "completed" {
		v.printf("\n%s\n", vh)
	}
	if out["status"] == "launched" {
		v.printf("Windows Sandbox started (pid %v). A launch proves only that it started.\n", out["pid"])
	}
}
