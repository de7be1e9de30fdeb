package projecttasks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// parseVSCode reads .vscode/tasks.json, version 2.0.0 (docs/project-tasks.md,
// ".vscode/tasks.json"): custom tasks of type shell and process, with the properties
// of the target OS's section (windows, linux, osx) over the task's, over the file's
// global options, and ${workspaceFolder} substituted. Anything VS Code would need the
// user's session for (other ${…} variables, a shell's custom quoting, dependsOn) skips
// the task with a warning.
func parseVSCode(in *input) output {
	b := newBuilder(in, SourceVSCode)
	root, data, err := parseJSONC(in.data, false)
	if err != nil {
		b.warn(0, RuleSyntax, "%v; no task is read", err)
		return b.out
	}
	top := object(root)
	lines := newLineIndex(data)
	if v := member(top, "version"); v == nil {
		b.warn(0, RuleVersion, "the file has no version; only version 2.0.0 is read")
		return b.out
	} else if s, _ := str(v); s != "2.0.0" {
		b.warn(lines.at(v.StartOffset), RuleVersion, "only tasks.json version 2.0.0 is read")
		return b.out
	}
	v := &vscode{b: b, lines: lines, osKey: vsOSKey(in.goos)}
	global, bad := v.options(member(top, "options"))
	if bad == "" {
		var osGlobal vsOptions
		osGlobal, bad = v.options(member(object(member(top, v.osKey)), "options"))
		global = global.over(osGlobal)
	}
	if bad != "" {
		b.warn(0, RuleShape, "the file's global options: %s; no task is read", bad)
		return b.out
	}
	if member(top, "command") != nil || member(object(member(top, v.osKey)), "command") != nil {
		b.warn(0, RuleNotUnderstood, "a top-level command is not read; tasks without their own command are skipped")
	}
	tasks := member(top, "tasks")
	if isNull(tasks) {
		return b.out
	}
	arr := array(tasks)
	if arr == nil {
		b.warn(lines.at(tasks.StartOffset), RuleShape, "tasks is not an array; no task is read")
		return b.out
	}
	seen := map[string]bool{}
	for i := range arr.Elements {
		if i == maxExamined {
			b.warn(v.lines.at(arr.Elements[i].StartOffset), RuleTooMany, "more than %d tasks: this one and the rest of the file are skipped", maxExamined)
			break
		}
		v.task(&arr.Elements[i], global, seen)
	}
	return b.out
}

// Budgets of one tasks.json: the task elements examined and the variables of one
// options.env (each task merges the global env into its own).
const (
	maxExamined = 4 * MaxTasks
	maxEnv      = 256
)

type vscode struct {
	b     *builder
	lines lineIndex
	osKey string
}

func vsOSKey(goos string) string {
	switch goos {
	case "windows":
		return "windows"
	case "darwin":
		return "osx"
	}
	return "linux"
}

// cmdString is VS Code's CommandString: a string, or a value with a quoting style.
type cmdString struct {
	value   string
	quoting string // "", "escape", "strong", "weak"
}

// vsShell is options.shell.
type vsShell struct {
	exe     *string
	args    []string
	hasArgs bool
	quoting bool
}

type vsOptions struct {
	cwd   *string
	env   map[string]string
	shell *vsShell
}

// over is o with p's settings taking precedence (VS Code's assign: cwd replaced, env
// merged, shell fields replaced one by one).
func (o vsOptions) over(p vsOptions) vsOptions {
	r := o
	if p.cwd != nil {
		r.cwd = p.cwd
	}
	if p.env != nil {
		r.env = map[string]string{}
		for k, v := range o.env {
			r.env[k] = v
		}
		for k, v := range p.env {
			r.env[k] = v
		}
	}
	if p.shell != nil {
		s := vsShell{}
		if o.shell != nil {
			s = *o.shell
		}
		if p.shell.exe != nil {
			s.exe = p.shell.exe
		}
		if p.shell.hasArgs {
			s.args, s.hasArgs = p.shell.args, true
		}
		s.quoting = s.quoting || p.shell.quoting
		r.shell = &s
	}
	return r
}

// options reads an options object; bad says what is wrong with it.
func (v *vscode) options(val *hujson.Value) (vsOptions, string) {
	var o vsOptions
	if isNull(val) {
		return o, ""
	}
	obj := object(val)
	if obj == nil {
		return o, "options is not an object"
	}
	if c := member(obj, "cwd"); !isNull(c) {
		s, ok := str(c)
		if !ok {
			return o, "options.cwd is not a string"
		}
		o.cwd = &s
	}
	if e := member(obj, "env"); !isNull(e) {
		eo := object(e)
		if eo == nil {
			return o, "options.env is not an object"
		}
		if len(eo.Members) > maxEnv {
			return o, fmt.Sprintf("options.env sets more than %d variables", maxEnv)
		}
		o.env = map[string]string{}
		for i := range eo.Members {
			k, _ := str(&eo.Members[i].Name)
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return o, "options.env has a variable name that is empty or holds '=' or NUL"
			}
			lit, ok := eo.Members[i].Value.Value.(hujson.Literal)
			if !ok {
				return o, "an options.env value is not a string, number or boolean"
			}
			if lit.Kind() == 'n' {
				delete(o.env, k)
				continue
			}
			o.env[k] = lit.String()
		}
	}
	if sh := member(obj, "shell"); !isNull(sh) {
		so := object(sh)
		if so == nil {
			return o, "options.shell is not an object"
		}
		s := vsShell{}
		if x := member(so, "executable"); !isNull(x) {
			e, ok := str(x)
			if !ok {
				return o, "options.shell.executable is not a string"
			}
			s.exe = &e
		}
		if a := member(so, "args"); !isNull(a) {
			arr := array(a)
			if arr == nil {
				return o, "options.shell.args is not an array of strings"
			}
			s.hasArgs = true
			for i := range arr.Elements {
				x, ok := str(&arr.Elements[i])
				if !ok {
					return o, "options.shell.args is not an array of strings"
				}
				s.args = append(s.args, x)
			}
		}
		s.quoting = !isNull(member(so, "quoting"))
		o.shell = &s
	}
	return o, ""
}

// commandString reads a command or an argument: a string, an array of strings (joined
// by spaces, as VS Code does), or {value, quoting}.
func commandString(val *hujson.Value) (cmdString, bool) {
	if s, ok := str(val); ok {
		return cmdString{value: s}, true
	}
	if a := array(val); a != nil {
		parts := make([]string, 0, len(a.Elements))
		for i := range a.Elements {
			s, ok := str(&a.Elements[i])
			if !ok {
				return cmdString{}, false
			}
			parts = append(parts, s)
		}
		return cmdString{value: strings.Join(parts, " ")}, true
	}
	o := object(val)
	if o == nil {
		return cmdString{}, false
	}
	c, ok := commandString(member(o, "value"))
	if !ok || c.quoting != "" {
		return cmdString{}, false
	}
	q, ok := str(member(o, "quoting"))
	if !ok || (q != "escape" && q != "strong" && q != "weak") {
		return cmdString{}, false
	}
	c.quoting = q
	return c, true
}

// task reads one element of tasks.
func (v *vscode) task(el *hujson.Value, global vsOptions, seen map[string]bool) {
	b := v.b
	line := v.lines.at(el.StartOffset)
	tk := object(el)
	if tk == nil {
		b.warn(line, RuleShape, "a task is not an object; it is skipped")
		return
	}
	osec := object(member(tk, v.osKey))
	pick := func(name string) *hujson.Value {
		if x := member(osec, name); x != nil {
			return x
		}
		return member(tk, name)
	}
	typ := "process"
	if t := pick("type"); !isNull(t) {
		s, ok := str(t)
		if !ok {
			b.warn(line, RuleShape, "a task's type is not a string; it is skipped")
			return
		}
		if s != "shell" && s != "process" {
			// A customization of a task an extension contributes (npm, typescript…):
			// not a definition.
			return
		}
		typ = s
	}
	lv := member(tk, "label")
	if lv == nil {
		lv = member(tk, "taskName")
	}
	if lv == nil {
		b.warn(line, RuleShape, "a task has no label; it is skipped")
		return
	}
	line = v.lines.at(lv.StartOffset)
	name, ok := str(lv)
	if !ok {
		b.warn(line, RuleShape, "a task's label is not a string; it is skipped")
		return
	}
	if !b.okName(line, name) {
		return
	}
	if seen[name] {
		b.warn(line, RuleDuplicate, "task %q is defined twice; the first definition is used", name)
		return
	}
	seen[name] = true
	if !isNull(member(tk, "dependsOn")) {
		b.warn(line, RuleDependsOn, "task %q has dependsOn; running its command alone would not run what it depends on, so it is skipped", name)
		return
	}
	var cmd cmdString
	if c := pick("command"); !isNull(c) {
		if cmd, ok = commandString(c); !ok {
			b.warn(line, RuleShape, "task %q: command is not a string, an array of strings or {value, quoting}; it is skipped", name)
			return
		}
	}
	if strings.TrimSpace(cmd.value) == "" {
		b.warn(line, RuleNoCommand, "task %q has no command; it is skipped", name)
		return
	}
	var args []cmdString
	if a := pick("args"); !isNull(a) {
		arr := array(a)
		if arr == nil {
			b.warn(line, RuleShape, "task %q: args is not an array; it is skipped", name)
			return
		}
		for i := range arr.Elements {
			c, ok := commandString(&arr.Elements[i])
			if !ok {
				b.warn(line, RuleShape, "task %q: an argument is not a string or {value, quoting}; it is skipped", name)
				return
			}
			args = append(args, c)
		}
	}
	opts, bad := v.options(member(tk, "options"))
	if bad == "" {
		var osOpts vsOptions
		osOpts, bad = v.options(member(osec, "options"))
		opts = global.over(opts.over(osOpts))
	}
	if bad != "" {
		b.warn(line, RuleShape, "task %q: %s; it is skipped", name, bad)
		return
	}

	// Substitute ${workspaceFolder}; any other variable skips the task.
	original := cmd.value
	sub := &substituter{workspace: v.b.in.workspace}
	cmd.value = sub.do(cmd.value)
	for i := range args {
		args[i].value = sub.do(args[i].value)
	}
	cwd := v.b.in.dir
	if opts.cwd != nil {
		c := sub.do(*opts.cwd)
		if sub.bad == "" {
			rel, err := v.workspaceRel(c)
			if err == nil {
				cwd, err = relCwd(v.b.in.dir, rel)
			}
			if err != nil {
				b.warn(line, RuleCwd, "task %q: options.cwd: %v; it is skipped", name, err)
				return
			}
		}
	}
	var env map[string]string
	if len(opts.env) > 0 {
		env = map[string]string{}
		for k, x := range opts.env {
			env[k] = sub.do(x)
		}
	}
	t := Task{Name: name, Cwd: cwd, Env: env, Line: line}
	if typ == "shell" {
		exe, shellArgs, bad := v.shell(opts.shell, sub)
		if bad != "" {
			b.warn(line, RuleShell, "task %q: %s; it is skipped", name, bad)
			return
		}
		cl := commandLine(v.b.in.goos, exe, cmd, original, args)
		t.Lang, t.Definition = LangShell, []string{cl}
		t.Argv = append(append([]string{exe}, shellArgs...), cl)
	} else {
		t.Lang = LangArgv
		t.Argv = []string{cmd.value}
		for _, a := range args {
			t.Argv = append(t.Argv, a.value)
		}
		t.Definition = slices.Clone(t.Argv)
	}
	if sub.bad != "" {
		b.warn(line, RuleVariable, "task %q uses %s, which only VS Code can resolve; only ${workspaceFolder} is substituted, so it is skipped", name, sub.bad)
		return
	}
	envTexts := make([]string, 0, 2*len(env))
	for k, x := range env {
		envTexts = append(envTexts, k, x)
	}
	if !b.okTexts(line, name, t.Argv, envTexts) || !b.room(line) {
		return
	}
	if d, ok := str(member(tk, "detail")); ok {
		if _, good := checkText(d); good {
			t.Description = d
		}
	}
	t.Group, t.Default = vsGroup(member(tk, "group"))
	t.Background, _ = boolean(member(tk, "isBackground"))
	hide, _ := boolean(member(tk, "hide"))
	b.add(t, nil, hide)
}

// vsGroup reads group: "build", or {kind, isDefault}.
func vsGroup(g *hujson.Value) (string, bool) {
	if s, ok := str(g); ok {
		if s == "none" {
			return "", false
		}
		return s, false
	}
	o := object(g)
	if o == nil {
		return "", false
	}
	kind, _ := str(member(o, "kind"))
	if kind == "none" {
		kind = ""
	}
	def, ok := boolean(member(o, "isDefault"))
	if !ok {
		s, _ := str(member(o, "isDefault"))
		def = s != ""
	}
	if _, _, good := checkName(kind); !good {
		kind = ""
	}
	return kind, def && kind != ""
}

// workspaceRel makes a substituted cwd relative to the directory read: VS Code joins a
// relative cwd to the workspace folder; an absolute one must lie in it.
func (v *vscode) workspaceRel(c string) (string, error) {
	ws := v.b.in.workspace
	fold := v.b.in.goos == "windows"
	eq := func(a, b string) bool {
		if fold {
			return strings.EqualFold(a, b)
		}
		return a == b
	}
	if ws != "" && len(c) >= len(ws) && eq(c[:len(ws)], ws) {
		rest := c[len(ws):]
		if rest == "" {
			return ".", nil
		}
		if rest[0] == '/' || rest[0] == '\\' {
			return strings.TrimLeft(rest, `/\`), nil
		}
	}
	if isAbs(c) {
		return "", fmt.Errorf("an absolute path outside the directory read")
	}
	return c, nil
}

// isAbs reports a path absolute or anchored in either syntax (/x, \x, C:x, \\host).
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) ||
		(len(p) >= 2 && p[1] == ':')
}

// substituter replaces ${workspaceFolder} (and its deprecated name ${workspaceRoot});
// bad names the first other variable met.
type substituter struct {
	workspace string
	bad       string
}

func (s *substituter) do(x string) string {
	var out strings.Builder
	for {
		i := strings.Index(x, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(x[i+2:], '}')
		if j < 0 {
			break
		}
		name := x[i+2 : i+2+j]
		out.WriteString(x[:i])
		switch name {
		case "workspaceFolder", "workspaceRoot":
			out.WriteString(s.workspace)
		default:
			if s.bad == "" {
				s.bad = variableKind(name)
			}
			out.WriteString(x[i : i+3+j])
		}
		x = x[i+3+j:]
	}
	out.WriteString(x)
	return out.String()
}

// variableKind names a variable for a warning without quoting more of the file than
// its kind: ${input:…}, ${env:…}, ${file}, or ${…}.
func variableKind(name string) string {
	k, _, colon := strings.Cut(name, ":")
	if k == "" || len(k) > 32 || strings.IndexFunc(k, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9')
	}) >= 0 {
		return "${…}"
	}
	if colon {
		return "${" + k + ":…}"
	}
	return "${" + k + "}"
}
