package main

import (
	"fmt"
	"strings"
)

// The plan view (docs/cli.md, "wda plan"): the route, the evidence that decided it,
// and the next step as a command. workflow_plan's result comes in two views: the
// compact one (default) lists only the candidates that carry evidence, with their
// match lists; the full one (--explain, detail "full") every candidate with every
// score. The view reads whichever it gets.

// rankDims are the dimensions a candidate is ranked on, in the order the route
// compares them (docs/tools/workflow_plan.md): the first that differs decides.
var rankDims = []struct {
	name string
	why  func(c map[string]any) string
}{
	{"operation", func(map[string]any) string { return "it performs the task's operation" }},
	{"discriminating", func(c map[string]any) string {
		return "the task names it (" + strings.Join(strs(c["discriminating_matches"]), ", ") + ")"
	}},
	{"project", func(c map[string]any) string {
		return "the project shows it (" + strings.Join(strs(c["project_evidence"]), ", ") + ")"
	}},
	{"identity", func(c map[string]any) string {
		return "more of the task's words match it (" + strings.Join(strs(c["identity_matches"]), ", ") + ")"
	}},
	{"description", func(c map[string]any) string {
		return "its description matches (" + strings.Join(strs(c["description_matches"]), ", ") + ")"
	}},
}

// rank is a candidate's scores in rankDims order. The full view gives them; the
// compact one gives the match lists whose lengths they are, the project score, and
// lists only candidates that perform the task's operation.
func rank(c map[string]any) [5]int {
	score := func(key, list string) int {
		if n, ok := c[key].(float64); ok {
			return int(n)
		}
		return len(strs(c[list]))
	}
	op := 1
	if n, ok := c["operation_score"].(float64); ok {
		op = int(n)
	}
	return [5]int{op, score("discriminating_score", "discriminating_matches"), score("project_score", ""),
		score("identity_score", "identity_matches"), score("description_score", "description_matches")}
}

// strs is a JSON list of strings.
func strs(v any) []string {
	var out []string
	for _, e := range list(v) {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// selectedID is the selected capability: selected_candidate is its id, or (older
// results) a copy of the candidate.
func selectedID(out map[string]any) string {
	switch s := out["selected_candidate"].(type) {
	case string:
		return s
	case map[string]any:
		id, _ := s["capability"].(string)
		return id
	}
	return ""
}

// candidate finds a candidate of the result by id.
func candidate(out map[string]any, id string) map[string]any {
	for _, c := range list(out["candidate_capabilities"]) {
		if m := obj(c); m["capability"] == id {
			return m
		}
	}
	if m := obj(out["matched_candidate"]); m["capability"] == id {
		return m
	}
	return nil
}

// whyWon says what put the selected candidate ahead of the next one: the first rank
// dimension on which they differ, with the winner's evidence there.
func whyWon(out map[string]any, id string) string {
	win := candidate(out, id)
	if win == nil {
		return ""
	}
	var next map[string]any
	for _, c := range list(out["candidate_capabilities"]) {
		if m := obj(c); m["capability"] != id {
			next = m
			break
		}
	}
	if next == nil {
		return id + " is the only candidate with evidence for the task."
	}
	rw, rn := rank(win), rank(next)
	for i, d := range rankDims {
		if rw[i] != rn[i] {
			return fmt.Sprintf("%s ranks above %s because %s.", id, str(next["capability"]), d.why(win))
		}
	}
	return fmt.Sprintf("%s and %s have the same evidence; %s comes first in the catalog.", id, str(next["capability"]), id)
}

// renderPlan shows a workflow_plan result.
func renderPlan(v *view, out map[string]any) {
	if out["status"] != "planned" {
		renderStatus(v, out)
		return
	}
	v.printf("Task:      %s\n", str(out["task"]))
	v.printf("Project:   %s\n", str(out["project_dir"]))
	pe := obj(out["project_evidence"])
	if pe["inspected"] == true {
		found := strs(pe["found"])
		if len(found) == 0 {
			v.printf("           none of the catalog's project files is in it\n")
		} else {
			v.printf("           has %s\n", strings.Join(found, ", "))
		}
	}
	status := str(out["selection_status"])
	id := selectedID(out)
	switch {
	case id != "":
		line := id
		if c := obj(out["matched_candidate"]); c["capability"] == id && c["safety_class"] != nil {
			line += fmt.Sprintf(" (tool %s, %s)", str(c["available_tool"]), str(c["safety_class"]))
		}
		v.printf("Selected:  %s\n", line)
		if why := whyWon(out, id); why != "" {
			v.printf("Why:       %s\n", why)
		}
	default:
		v.printf("Selection: %s\n", status)
		if m := obj(out["matched_candidate"]); m != nil && status == "matched_unavailable" {
			v.printf("Matched:   %s (none of its tools is installed)\n", str(m["capability"]))
		}
		if rd := obj(out["route_discriminator"]); rd != nil {
			v.printf("Why:       %s\n", str(rd["reason"]))
		} else if nt := obj(out["next_tool"]); nt != nil {
			v.printf("Why:       %s\n", withoutToolNames(str(nt["reason"])))
		}
	}
	// A route to another command leaves the capabilities behind: their evidence is
	// shown when asked for (--explain).
	if v.explain || (status != "package_setup" && status != "other_tool") {
		renderCandidates(v, out)
	}
	renderPlanNotes(v, pe)
	if steps := planSteps(v, out); len(steps) > 0 {
		v.printf("\n")
		for _, s := range steps {
			v.printf("%s\n", s)
		}
	}
}

// renderCandidates lists the candidates best first with the evidence each has, in the
// order the route weighs it: those with evidence for the task, or with --explain
// every one, with whether it performs the task's operation, its class and the tool
// that would run.
func renderCandidates(v *view, out map[string]any) {
	var cands []any
	for _, c := range list(out["candidate_capabilities"]) {
		if r := rank(obj(c)); v.explain || r[0] > 0 && r[2]+r[3]+r[4] > 0 {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return
	}
	dash := func(l []string) string {
		if len(l) == 0 {
			return "-"
		}
		return strings.Join(l, ",")
	}
	full := v.explain
	v.printf("\nCandidates, best first (weighed in this order: the task names it, the project shows it, task words, description words):\n")
	header := []string{"CANDIDATE", "NAMED BY", "PROJECT", "WORDS", "DESCRIPTION"}
	if full {
		header = append([]string{"CANDIDATE", "OPERATION"}, append(header[1:], "CLASS", "TOOL")...)
	}
	rows := [][]string{header}
	for _, c := range cands {
		m := obj(c)
		project := "-"
		if r := rank(m); r[2] > 0 {
			project = dash(strs(m["project_evidence"]))
		}
		row := []string{str(m["capability"]), dash(strs(m["discriminating_matches"])), project,
			dash(strs(m["identity_matches"])), dash(strs(m["description_matches"]))}
		if full {
			op := "no"
			if rank(m)[0] > 0 {
				op = "yes"
			}
			row = append([]string{row[0], op}, append(row[1:], str(m["safety_class"]), str(m["available_tool"]))...)
		}
		rows = append(rows, row)
	}
	v.table(rows)
}

// renderPlanNotes says what the project's files did not give: files skipped as
// evidence, task definitions the reader skipped.
func renderPlanNotes(v *view, pe map[string]any) {
	var notes []string
	for _, s := range list(pe["skipped"]) {
		m := obj(s)
		notes = append(notes, fmt.Sprintf("%s not used: %s", str(m["file"]), str(m["reason"])))
	}
	if tw := obj(pe["task_warnings"]); tw != nil {
		notes = append(notes, fmt.Sprintf("%v project task definition(s) skipped (first: %s)", tw["count"], strings.Join(strs(tw["first"]), "; ")))
	}
	if len(notes) == 0 {
		return
	}
	v.printf("\nNotes:\n")
	for _, n := range notes {
		v.printf("  - %s\n", n)
	}
}

// maxSuggested bounds the candidates a plan without a selection offers as commands.
const maxSuggested = 5

// planSteps are the next steps of a plan as commands (docs/cli.md, "Next steps").
func planSteps(v *view, out map[string]any) []string {
	sc := v.sc
	sc.project = str(out["project_dir"])
	nt := obj(out["next_tool"])
	next := ""
	if nt != nil {
		name, _ := nt["name"].(string)
		argv, err := nextCommand(name, obj(nt["arguments"]), strs(nt["missing"]), sc)
		if err == nil {
			next = commandText(argv)
		}
	}
	run := func(id string) string { return stepText("capability_run", map[string]any{"capability": id}, sc) }
	switch out["selection_status"] {
	case "selected", "other_tool":
		if next == "" {
			return nil
		}
		line := "Next: " + next
		if missing := strs(nt["missing"]); len(missing) > 0 {
			line += fmt.Sprintf(" (the task does not give the %s: put it in)", strings.ReplaceAll(strings.Join(missing, ", "), "_", " "))
		}
		return []string{line}
	case "package_setup":
		if next == "" {
			return nil
		}
		return []string{"Next: " + next + ", then wda install ID with the id you choose from its list."}
	case "ambiguous":
		var cmds []string
		for _, id := range strs(obj(out["route_discriminator"])["candidates"]) {
			cmds = append(cmds, run(id))
		}
		if len(cmds) == 0 {
			return nil
		}
		return []string{"Next: say which: " + strings.Join(cmds, ", or ")}
	case "matched_unavailable":
		m := str(obj(out["matched_candidate"])["capability"])
		tools := strs(obj(obj(out["route_discriminator"])["configured_tools"])[m])
		if len(tools) == 0 {
			tools = strs(obj(out["matched_candidate"])["configured_tools"])
		}
		if h := toolHelp(tools, sc); h != "" {
			return []string{h}
		}
		return nil
	}
	// no_match: the candidates with evidence, and the project to point at.
	var steps []string
	var cmds []string
	for _, c := range list(out["candidate_capabilities"]) {
		m := obj(c)
		r := rank(m)
		if r[0] == 0 || r[1]+r[2]+r[3]+r[4] == 0 {
			continue
		}
		if len(cmds) == maxSuggested {
			break
		}
		cmds = append(cmds, run(str(m["capability"])))
	}
	if len(cmds) > 0 {
		steps = append(steps, "Next: say which: "+strings.Join(cmds, ", or "))
	}
	if pe := obj(out["project_evidence"]); pe["inspected"] == true && len(strs(pe["found"])) == 0 {
		again := stepText("workflow_plan", map[string]any{"task": str(out["task"])}, stepContext{})
		steps = append(steps, fmt.Sprintf("The project has none of the catalog's project files; if it is another folder: %s --project DIR", again))
	}
	return steps
}

// withoutToolNames is a reason written for an MCP client, for people: its first
// clause says what the task asks ("The task asks what this server's tools did") and
// the rest how a client calls the tool, which the next step says as a command. A
// first clause that names a tool has the name replaced by its command.
func withoutToolNames(reason string) string {
	first, _, cut := strings.Cut(reason, ": ")
	if cut {
		reason = first + "."
	}
	for _, name := range toolNames() {
		if tc := commandFor(name); tc != nil {
			reason = strings.ReplaceAll(reason, name, "wda "+tc.name)
		}
	}
	return reason
}
