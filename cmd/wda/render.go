package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/windows-dev-agent/wda/tools/logsquery"
)

// view is where a human view is written, with what an enrich step added, the call's
// arguments, and what its next steps need (docs/cli.md, "Next steps").
type view struct {
	w     io.Writer
	extra map[string]any
	tool  string
	args  map[string]any
	sc    stepContext
	// explain: the person asked for every candidate and score (wda plan --explain).
	explain bool
}

func (v *view) printf(format string, a ...any) { fmt.Fprintf(v.w, format, a...) }

// table prints rows aligned in columns, each row indented by two spaces.
func (v *view) table(rows [][]string) {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, "  "+strings.Join(r, "\t"))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			fmt.Fprintln(v.w, strings.TrimRight(line, " \n"))
		}
	}
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

// tri renders a tri-state fact: observed present, observed absent, or not established.
func tri(v any) string {
	switch v {
	case true:
		return "yes"
	case false:
		return "no"
	}
	return "unknown"
}

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func list(v any) []any { l, _ := v.([]any); return l }

// statusLine is the first line of a result that is not what was hoped for.
func renderStatus(v *view, out map[string]any) {
	v.printf("status: %s\n", str(out["status"]))
	if e, _ := out["error"].(string); e != "" {
		v.printf("error:  %s\n", e)
	}
}

// containmentHint is the next step after a project argument was refused for leaving
// the project: the same command with that folder as the project (--project). "" for
// any other result. The tool commands print it after any view of a result (it is not
// part of renderStatus, which the command table's views refer to).
func containmentHint(v *view, out map[string]any) string {
	project, ok := outsideProject(v.tool, out)
	if !ok {
		return ""
	}
	arg := lookupTool(v.tool).ProjectArg()
	hint := fmt.Sprintf("The project is %s, and --%s must name a folder inside it; --project DIR makes another folder the project.", project, commandFor(v.tool).flagName(arg))
	named, _ := v.args[arg].(string)
	if named == "" {
		return hint
	}
	if !filepath.IsAbs(named) {
		named = filepath.Join(project, named)
	}
	args := maps.Clone(v.args)
	delete(args, arg)
	sc := stepContext{session: sessionFlags{project: named, dataDir: v.sc.session.dataDir}}
	if text := stepText(v.tool, args, sc); text != "" {
		hint += " To work on " + named + ": " + text
	}
	return hint
}

// outsideProject reports a refusal of a project argument outside the project, which
// the generic host words "<argument> must stay inside the project: <project>"
// (host.Generic), and the project it names.
func outsideProject(tool string, out map[string]any) (string, bool) {
	t := lookupTool(tool)
	if t == nil || t.ProjectArg() == "" || out["status"] != "invalid_input" {
		return "", false
	}
	msg, _ := out["error"].(string)
	return strings.CutPrefix(msg, t.ProjectArg()+" must stay inside the project: ")
}

// discoverVersions is env's enrich step: tool_discover's paths and versions.
func discoverVersions(k *client) map[string]any {
	res, err := k.call("wda env: versions", "tool_discover", json.RawMessage(`{"category":"all"}`))
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	return structured(res)
}

// versionOf is "version  path" of a discovered tool, or "" when not found.
func versionOf(d map[string]any, group, name string) (version, path string) {
	e := obj(obj(d[group])[name])
	if e == nil || e["available"] != true {
		return "", ""
	}
	version, _ = e["version"].(string)
	path, _ = e["path"].(string)
	if version == "" {
		version = "version unknown"
	}
	return version, path
}

func renderEnv(v *view, out map[string]any) {
	snap := obj(out["snapshot"])
	if snap == nil {
		renderStatus(v, out)
		return
	}
	d := v.extra
	note := ""
	if out["status"] == "degraded" {
		note = " (some facts could not be established: see Notes)"
	}
	v.printf("Environment: %s%s\n", str(out["status"]), note)
	sys := obj(snap["system"])
	v.printf("\nSystem\n")
	v.table([][]string{
		{"OS", strings.TrimSpace(fmt.Sprintf("%s %s", str(sys["os_name"]), str(sys["os_version"]))), str(sys["architecture"])},
		{"Processor", str(sys["processor_name"]), fmt.Sprintf("%v logical processor(s), %v package(s)", sys["logical_processors"], sys["processor_packages"])},
		{"Memory", fmt.Sprintf("%v GB", sys["total_physical_memory_gb"]), ""},
	})
	// Runtimes: presence from the snapshot, version and path from tool_discover.
	rt := obj(snap["runtimes"])
	v.printf("\nRuntimes\n")
	var rows [][]string
	for _, r := range []struct{ key, label, probe string }{
		{"python", "Python", "python"}, {"node", "Node.js", "node"}, {"rust", "Rust", "cargo"},
		{"golang", "Go", "go"}, {"dotnet", ".NET", "dotnet"},
	} {
		ver, path := versionOf(d, "runtimes", r.probe)
		rows = append(rows, []string{r.label, tri(obj(rt[r.key])["available"]), ver, path})
	}
	for _, r := range []struct{ probe, label string }{{"py", "Python launcher (py)"}, {"java", "Java"}} {
		if ver, path := versionOf(d, "runtimes", r.probe); path != "" {
			rows = append(rows, []string{r.label, "yes", ver, path})
		}
	}
	v.table(rows)
	v.printf("\nVersion control\n")
	gitVer, gitPath := versionOf(d, "vcs", "git")
	rows = [][]string{{"git", tri(obj(snap["git"])["available"]), gitVer, gitPath}}
	for _, n := range []string{"gh", "git-lfs"} {
		if ver, path := versionOf(d, "vcs", n); path != "" {
			rows = append(rows, []string{n, "yes", ver, path})
		}
	}
	v.table(rows)
	ed := obj(snap["editors"])
	v.printf("\nEditors\n")
	rows = nil
	for _, e := range []struct{ key, label, probe string }{
		{"visual_studio_code", "Visual Studio Code", "code"}, {"visual_studio", "Visual Studio", "devenv"},
		{"jetbrains_rider", "JetBrains Rider", "rider"}, {"jetbrains_pycharm", "JetBrains PyCharm", "pycharm"},
		{"jetbrains_clion", "JetBrains CLion", ""},
	} {
		ver, path := versionOf(d, "editors", e.probe)
		rows = append(rows, []string{e.label, tri(ed[e.key]), ver, path})
	}
	v.table(rows)
	dt := obj(snap["development_tools"])
	v.printf("\nPackage managers\n")
	rows = nil
	for _, m := range []struct{ key, label, probe string }{
		{"winget_available", "WinGet", "winget"}, {"chocolatey_available", "Chocolatey", "choco"}, {"scoop_available", "Scoop", "scoop"},
	} {
		ver, path := versionOf(d, "package_managers", m.probe)
		rows = append(rows, []string{m.label, tri(dt[m.key]), ver, path})
	}
	for _, n := range []string{"pip", "uv", "npm"} {
		if ver, path := versionOf(d, "package_managers", n); path != "" {
			rows = append(rows, []string{n, "yes", ver, path})
		}
	}
	v.table(rows)
	virt := obj(snap["virtualization"])
	v.printf("\nIsolation\n")
	wsl := tri(virt["wsl_available"])
	if distro, _ := virt["wsl_default_distro"].(string); distro != "" {
		wsl += " (default distro " + distro + ")"
	}
	// A state string is shown when the snapshot has it: the compact snapshot leaves out
	// one that only repeats the tri-state (docs/tools/env_inspect.md, "Summary").
	withState := func(avail any, state any) string {
		if s, ok := state.(string); ok && s != "" {
			return fmt.Sprintf("%s (state %s)", tri(avail), s)
		}
		return tri(avail)
	}
	v.table([][]string{
		{"WSL", wsl},
		{"Windows Sandbox", withState(virt["windows_sandbox_available"], virt["windows_sandbox_state"])},
		{"Hyper-V", withState(virt["hyper_v_available"], virt["hyper_v_state"])},
		{"Docker", fmt.Sprintf("installed %s, engine running %s", tri(dt["docker_installed"]), tri(dt["docker_running"]))},
		{"Dev Drive", withState(virt["dev_drive_enabled"], virt["dev_drive_state"])},
	})
	var avail []string
	for _, a := range list(snap["available_isolation_options"]) {
		avail = append(avail, str(a))
	}
	if len(avail) == 0 {
		avail = []string{"none established"}
	}
	v.printf("  usable for sandbox_run: %s\n", strings.Join(avail, ", "))
	var notes []string
	for _, e := range list(snap["errors"]) {
		notes = append(notes, str(e))
	}
	if d == nil {
		notes = append(notes, "versions were not probed")
	} else if e, _ := d["error"].(string); e != "" {
		notes = append(notes, "versions could not be probed: "+e)
	}
	if len(notes) > 0 {
		v.printf("\nNotes\n")
		for _, n := range notes {
			v.printf("  - %s\n", n)
		}
	}
	v.printf("\nyes = observed, no = observed absent, unknown = not established.\n")
}

func renderDiscover(v *view, out map[string]any) {
	if out["status"] != "ok" {
		renderStatus(v, out)
		return
	}
	for _, g := range []struct{ key, label string }{{"runtimes", "Runtimes"}, {"editors", "Editors"},
		{"package_managers", "Package managers"}, {"vcs", "Version control"}} {
		grp := obj(out[g.key])
		if grp == nil {
			continue
		}
		v.printf("%s\n", g.label)
		var rows [][]string
		for _, name := range sortedKeys(grp) {
			e := obj(grp[name])
			if e["available"] != true {
				rows = append(rows, []string{name, "not found", ""})
				continue
			}
			ver, _ := e["version"].(string)
			if ver == "" {
				ver = "version unknown"
			}
			rows = append(rows, []string{name, ver, str(e["path"])})
		}
		v.table(rows)
		v.printf("\n")
	}
}

func renderSearch(v *view, out map[string]any) {
	if out["status"] != "completed" && out["status"] != "incomplete" {
		renderStatus(v, out)
		if out["status"] == "unavailable" {
			for _, line := range managerHelp(str(out["source"]), map[string]any{"query": str(out["query"])}, v.sc) {
				v.printf("%s\n", line)
			}
		}
		return
	}
	matches := list(out["matches"])
	v.printf("%d package(s) from %s for %q\n", len(matches), str(out["source"]), str(out["query"]))
	if len(matches) > 0 {
		rows := [][]string{{"ID", "NAME", "VERSION", "SOURCE"}}
		for _, m := range matches {
			e := obj(m)
			rows = append(rows, []string{str(e["id"]), str(e["name"]), str(e["version"]), str(e["source"])})
		}
		v.table(rows)
		v.printf("\nInstall one with: wda install ID --source %s\n", str(out["source"]))
	}
	if w, _ := out["warning"].(string); w != "" {
		v.printf("warning: %s\n", w)
	}
}

// renderLogs prints events with logs_query's own text rendering, so the CLI and the tool
// cannot disagree about what a record means.
func renderLogs(v *view, out map[string]any) {
	var typed logsquery.Out
	b, _ := json.Marshal(out)
	if err := json.Unmarshal(b, &typed); err != nil {
		v.printf("unreadable logs_query result: %v\n", err)
		return
	}
	if err := logsquery.WriteText(v.w, typed); err != nil {
		v.printf("%v\n", err)
	}
}

// renderOutline prints any result as an indented outline: every field, in a stable
// order, without JSON punctuation. Tools whose results are inventories (scan, audit)
// read well this way.
func renderOutline(v *view, out map[string]any) {
	keys := sortedKeys(out)
	// status and error first: they say what happened.
	for _, first := range []string{"error", "status"} {
		if i := slices.Index(keys, first); i >= 0 {
			keys = append([]string{first}, slices.Delete(keys, i, i+1)...)
		}
	}
	for _, k := range keys {
		outline(v.w, k, out[k], 0)
	}
}

func outline(w io.Writer, key string, val any, depth int) {
	pad := strings.Repeat("  ", depth)
	switch x := val.(type) {
	case map[string]any:
		if len(x) == 0 {
			fmt.Fprintf(w, "%s%s: {}\n", pad, key)
			return
		}
		fmt.Fprintf(w, "%s%s:\n", pad, key)
		for _, k := range sortedKeys(x) {
			outline(w, k, x[k], depth+1)
		}
	case []any:
		if len(x) == 0 {
			fmt.Fprintf(w, "%s%s: none\n", pad, key)
			return
		}
		fmt.Fprintf(w, "%s%s:\n", pad, key)
		for i, item := range x {
			outline(w, fmt.Sprintf("- [%d]", i+1), item, depth+1)
		}
	case nil:
		fmt.Fprintf(w, "%s%s: null\n", pad, key)
	default:
		fmt.Fprintf(w, "%s%s: %s\n", pad, key, str(x))
	}
}
