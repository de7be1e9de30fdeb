package projecttasks

import (
	"path/filepath"
	"slices"
	"strings"
)

// parseNPM reads package.json's scripts (docs/project-tasks.md, "package.json"). Each
// script is a task run as [<runner>, run, <name>]; its body is the Definition, a
// shell text (npm, pnpm, yarn and bun hand it to a shell). The pre<name> and
// post<name> scripts npm runs around a script are its Needs.
func parseNPM(in *input) output {
	b := newBuilder(in, SourceNPM)
	root, data, err := parseJSONC(in.data, true)
	if err != nil {
		b.warn(0, RuleSyntax, "%v; no script is read", err)
		return b.out
	}
	lines := newLineIndex(data)
	scripts := member(object(root), "scripts")
	if isNull(scripts) {
		return b.out
	}
	obj := object(scripts)
	if obj == nil {
		b.warn(lines.at(scripts.StartOffset), RuleShape, "scripts is not an object; no script is read")
		return b.out
	}
	type script struct {
		name, body string
		line       int
	}
	var list []script
	at := map[string]int{}
	for i := range obj.Members {
		m := &obj.Members[i]
		line := lines.at(m.Name.StartOffset)
		name, _ := str(&m.Name)
		if !b.okName(line, name) {
			continue
		}
		body, ok := str(&m.Value)
		if !ok {
			b.warn(line, RuleShape, "script %q is not a string; it is skipped", name)
			continue
		}
		if j, dup := at[name]; dup {
			b.warn(line, RuleDuplicate, "script %q is defined twice; the last definition is used", name)
			list[j] = script{name, body, line}
			continue
		}
		at[name] = len(list)
		list = append(list, script{name, body, line})
	}
	bodies := map[string]string{}
	for _, s := range list {
		bodies[s.name] = s.body
	}
	for _, s := range list {
		switch {
		case strings.TrimSpace(s.body) == "":
			b.warn(s.line, RuleNoCommand, "script %q is empty; it is skipped", s.name)
			continue
		case strings.Contains(s.body, "no test specified"):
			// The placeholder npm init writes, which only fails (docs/catalog.md).
			continue
		}
		def := []string{s.body}
		if !b.okTexts(s.line, s.name, def) || !b.room(s.line) {
			continue
		}
		t := Task{Name: s.name, Argv: []string{in.runner, "run", s.name}, Lang: LangShell, Definition: def, Line: s.line}
		var context []string
		for _, n := range []string{"pre" + s.name, "post" + s.name} {
			if body, ok := bodies[n]; ok {
				t.Needs = append(t.Needs, b.id(n))
				context = append(context, n, body)
			}
		}
		b.add(t, context, false)
	}
	return b.out
}

// ScriptRun is the package.json script an argv (a catalog capability's, say) runs
// through a Node package manager, the runners package.json scripts run with
// (nodeRunner): "npm test" runs scripts.test, "npm run lint" scripts.lint (npm, pnpm,
// yarn and bun read "test", "start" and "run NAME" alike). "" when the argv runs none.
func ScriptRun(argv []string) string {
	if len(argv) < 2 || !isNodeRunner(strings.ToLower(strings.TrimSuffix(filepath.Base(argv[0]), filepath.Ext(argv[0])))) {
		return ""
	}
	switch argv[1] {
	case "t", "tst":
		return "test"
	case "test", "start", "stop", "restart":
		return argv[1]
	case "run", "run-script", "rum", "urn":
		if len(argv) > 2 && !strings.HasPrefix(argv[2], "-") {
			return argv[2]
		}
	}
	return ""
}

// isNodeRunner reports whether name is one of the runners nodeRunner picks from the
// lockfiles (npm, the default, has its own).
func isNodeRunner(name string) bool {
	return slices.ContainsFunc(lockfiles, func(l struct{ name, runner string }) bool { return l.runner == name })
}
