package projecttasks

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// parseTaskfile reads a Taskfile (version 3) with go.yaml.in/yaml/v3's node tree, which
// keeps every key's line (docs/project-tasks.md, "Taskfile"). A task runs as [task,
// <name>]; its preconditions, status checks and commands are its Definition, its deps
// and task: calls its Needs, its sh: variables its Implicit texts. internal tasks are
// helpers; tasks for another platform are left out.
func parseTaskfile(in *input) output {
	b := newBuilder(in, SourceTask)
	data := bytes.TrimPrefix(in.data, bom)
	if !utf8.Valid(data) {
		b.warn(0, RuleEncoding, "the file is not valid UTF-8; no task is read")
		return b.out
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		line := 0
		_, _ = fmt.Sscanf(err.Error(), "yaml: line %d:", &line) // no line number: line 0
		b.warn(line, RuleSyntax, "invalid YAML: a syntax error; no task is read")
		return b.out
	}
	w := &yamlWalker{budget: 16*len(data) + 1024}
	tf := &taskfile{b: b, w: w, goos: in.goos}
	if err := tf.read(&doc); err != nil {
		var we *yamlErr
		if errors.As(err, &we) {
			b.warn(we.line, we.rule, "%s; no task is read", we.msg)
		} else {
			b.warn(0, RuleShape, "%v; no task is read", err)
		}
		return output{warns: b.out.warns}
	}
	tf.finish(in)
	return b.out
}

type yamlErr struct {
	line int
	rule Rule
	msg  string
}

func (e *yamlErr) Error() string { return e.msg }

// yamlWalker follows aliases within a budget of nodes, so a document cannot expand far
// beyond its size.
type yamlWalker struct{ budget int }

func (w *yamlWalker) deref(n *yaml.Node) (*yaml.Node, error) {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if w.budget--; w.budget < 0 {
		return nil, &yamlErr{rule: RuleTooLarge, msg: "aliases expand the document beyond 16 times its size"}
	}
	if n == nil {
		return nil, &yamlErr{rule: RuleSyntax, msg: "an alias names no anchor"}
	}
	return n, nil
}

type yamlPair struct{ key, value *yaml.Node }

// pairs lists a mapping's entries in order, merge keys (<<) expanded below the
// mapping's own keys; a key written twice is an error.
func (w *yamlWalker) pairs(n *yaml.Node) ([]yamlPair, error) {
	n, err := w.deref(n)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.MappingNode {
		return nil, &yamlErr{line: n.Line, rule: RuleShape, msg: "a value is not a mapping"}
	}
	var out, merged []yamlPair
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := w.deref(n.Content[i])
		if err != nil {
			return nil, err
		}
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			m, err := w.deref(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			srcs := []*yaml.Node{m}
			if m.Kind == yaml.SequenceNode {
				srcs = m.Content
			}
			for _, src := range srcs {
				ps, err := w.pairs(src)
				if err != nil {
					return nil, err
				}
				merged = append(merged, ps...)
			}
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return nil, &yamlErr{line: k.Line, rule: RuleShape, msg: "a mapping key is not a scalar"}
		}
		if seen[k.Value] {
			return nil, &yamlErr{line: k.Line, rule: RuleDuplicate, msg: "a mapping key is written twice"}
		}
		seen[k.Value] = true
		out = append(out, yamlPair{k, n.Content[i+1]})
	}
	for _, p := range merged {
		if !seen[p.key.Value] {
			seen[p.key.Value] = true
			out = append(out, p)
		}
	}
	return out, nil
}

func (w *yamlWalker) get(ps []yamlPair, key string) *yaml.Node {
	for _, p := range ps {
		if p.key.Value == key {
			return p.value
		}
	}
	return nil
}

// text is a string scalar's value; a null is absent.
func (w *yamlWalker) text(n *yaml.Node) (string, bool, error) {
	if n == nil {
		return "", false, nil
	}
	n, err := w.deref(n)
	if err != nil {
		return "", false, err
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return "", false, nil
	}
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "!!int" && n.Tag != "!!float" && n.Tag != "!!bool") {
		return "", false, &yamlErr{line: n.Line, rule: RuleShape, msg: "a value is not a string"}
	}
	return n.Value, true, nil
}

// list is a sequence's elements (a null is empty).
func (w *yamlWalker) list(n *yaml.Node) ([]*yaml.Node, error) {
	if n == nil {
		return nil, nil
	}
	n, err := w.deref(n)
	if err != nil {
		return nil, err
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, &yamlErr{line: n.Line, rule: RuleShape, msg: "a value is not a list"}
	}
	return n.Content, nil
}

func isTrue(w *yamlWalker, n *yaml.Node) bool {
	if n == nil {
		return false
	}
	n, err := w.deref(n)
	return err == nil && n.Kind == yaml.ScalarNode && n.Tag == "!!bool" && strings.EqualFold(n.Value, "true")
}

type taskfile struct {
	b        *builder
	w        *yamlWalker
	goos     string
	includes bool
	implicit []string
	tasks    []*tfTask
}

type tfTask struct {
	name     string
	line     int
	def      []string
	needs    []string // names as written (no leading ':')
	implicit []string
	desc     string
	internal bool
	aliases  []string
	skip     string
	skipRule Rule
	off      bool // not for this platform
}

func (tf *taskfile) read(doc *yaml.Node) error {
	w := tf.w
	root, err := w.deref(doc)
	if err != nil {
		return err
	}
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil
		}
		if root, err = w.deref(root.Content[0]); err != nil {
			return err
		}
	}
	top, err := w.pairs(root)
	if err != nil {
		return err
	}
	v, ok, err := w.text(w.get(top, "version"))
	if err != nil || !ok || (v != "3" && !strings.HasPrefix(v, "3.")) {
		line := 0
		if n := w.get(top, "version"); n != nil {
			line = n.Line
		}
		return &yamlErr{line: line, rule: RuleVersion, msg: "only Taskfile version 3 is read"}
	}
	if n := w.get(top, "includes"); n != nil {
		tf.includes = true
		tf.b.warn(n.Line, RuleInclude, "the Taskfile includes others, which are not read: their tasks are not listed")
	}
	for _, key := range []string{"vars", "env"} {
		texts, err := tf.shVars(w.get(top, key))
		if err != nil {
			return err
		}
		tf.implicit = append(tf.implicit, texts...)
	}
	tasksNode := w.get(top, "tasks")
	if tasksNode == nil {
		return nil
	}
	entries, err := w.pairs(tasksNode)
	if err != nil {
		return err
	}
	for _, e := range entries {
		tf.tasks = append(tf.tasks, tf.task(e.key, e.value))
	}
	return nil
}

// shVars lists the sh: commands of a vars or env mapping (dynamic variables).
func (tf *taskfile) shVars(n *yaml.Node) ([]string, error) {
	if n == nil {
		return nil, nil
	}
	w := tf.w
	n, err := w.deref(n)
	if err != nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		return nil, err
	}
	ps, err := w.pairs(n)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range ps {
		v, err := w.deref(p.value)
		if err != nil {
			return nil, err
		}
		if v.Kind != yaml.MappingNode {
			continue
		}
		vp, err := w.pairs(v)
		if err != nil {
			return nil, err
		}
		if s, ok, err := w.text(w.get(vp, "sh")); err != nil {
			return nil, err
		} else if ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// task reads one entry of tasks; problems are recorded on the task, not returned.
func (tf *taskfile) task(key, value *yaml.Node) *tfTask {
	w := tf.w
	t := &tfTask{name: key.Value, line: key.Line}
	fail := func(err error) *tfTask {
		var ye *yamlErr
		if errors.As(err, &ye) {
			t.skipRule, t.skip = ye.rule, ye.msg
			if ye.rule == RuleShape {
				t.skip = "a value has the wrong shape"
			}
		} else {
			t.skipRule, t.skip = RuleShape, err.Error()
		}
		return t
	}
	v, err := w.deref(value)
	if err != nil {
		return fail(err)
	}
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return t
		}
		s, _, err := w.text(v)
		if err != nil {
			return fail(err)
		}
		t.def = []string{s}
		return t
	case yaml.SequenceNode:
		if err := tf.cmds(t, v.Content); err != nil {
			return fail(err)
		}
		return t
	}
	ps, err := w.pairs(v)
	if err != nil {
		return fail(err)
	}
	if pl := w.get(ps, "platforms"); pl != nil {
		on, err := tf.platformsMatch(pl)
		if err != nil {
			return fail(err)
		}
		t.off = !on
	}
	t.internal = isTrue(w, w.get(ps, "internal"))
	if d, ok, err := w.text(w.get(ps, "desc")); err != nil {
		return fail(err)
	} else if ok {
		t.desc = d
	}
	als, err := w.list(w.get(ps, "aliases"))
	if err != nil {
		return fail(err)
	}
	for _, a := range als {
		s, ok, err := w.text(a)
		if err != nil {
			return fail(err)
		}
		if _, _, good := checkName(s); ok && good {
			t.aliases = append(t.aliases, s)
		}
	}
	if d, ok, err := w.text(w.get(ps, "dir")); err != nil {
		return fail(err)
	} else if ok {
		if strings.Contains(d, "{{") {
			t.skipRule, t.skip = RuleVariable, "dir is computed by a template"
			return t
		}
		if _, err := relCwd(".", d); err != nil {
			t.skipRule, t.skip = RuleCwd, "dir: "+err.Error()
			return t
		}
	}
	for _, key := range []string{"vars", "env"} {
		texts, err := tf.shVars(w.get(ps, key))
		if err != nil {
			return fail(err)
		}
		t.implicit = append(t.implicit, texts...)
	}
	pre, err := w.list(w.get(ps, "preconditions"))
	if err != nil {
		return fail(err)
	}
	for _, p := range pre {
		p, err := w.deref(p)
		if err != nil {
			return fail(err)
		}
		if p.Kind == yaml.MappingNode {
			pp, err := w.pairs(p)
			if err != nil {
				return fail(err)
			}
			p = w.get(pp, "sh")
		}
		if s, ok, err := w.text(p); err != nil {
			return fail(err)
		} else if ok {
			t.def = append(t.def, s)
		}
	}
	status, err := w.list(w.get(ps, "status"))
	if err != nil {
		return fail(err)
	}
	for _, s := range status {
		x, ok, err := w.text(s)
		if err != nil {
			return fail(err)
		}
		if ok {
			t.def = append(t.def, x)
		}
	}
	deps, err := w.list(w.get(ps, "deps"))
	if err != nil {
		return fail(err)
	}
	for _, d := range deps {
		name, err := tf.taskRef(d)
		if err != nil {
			return fail(err)
		}
		t.needs = append(t.needs, name)
	}
	if c := w.get(ps, "cmd"); c != nil {
		if err := tf.cmds(t, []*yaml.Node{c}); err != nil {
			return fail(err)
		}
	}
	cmds, err := w.list(w.get(ps, "cmds"))
	if err != nil {
		return fail(err)
	}
	if err := tf.cmds(t, cmds); err != nil {
		return fail(err)
	}
	return t
}

// taskRef reads a dependency: a name, or {task: name, …}.
func (tf *taskfile) taskRef(n *yaml.Node) (string, error) {
	w := tf.w
	n, err := w.deref(n)
	if err != nil {
		return "", err
	}
	if n.Kind == yaml.MappingNode {
		ps, err := w.pairs(n)
		if err != nil {
			return "", err
		}
		n = w.get(ps, "task")
	}
	s, ok, err := w.text(n)
	if err != nil {
		return "", err
	}
	if !ok || s == "" {
		return "", &yamlErr{rule: RuleShape, msg: "a dependency names no task"}
	}
	return s, nil
}

// cmds reads a list of commands: strings, {cmd: …}, {task: …} or {defer: …}.
func (tf *taskfile) cmds(t *tfTask, list []*yaml.Node) error {
	w := tf.w
	for _, c := range list {
		c, err := w.deref(c)
		if err != nil {
			return err
		}
		if c.Kind == yaml.ScalarNode {
			s, ok, err := w.text(c)
			if err != nil {
				return err
			}
			if ok {
				t.def = append(t.def, s)
			}
			continue
		}
		ps, err := w.pairs(c)
		if err != nil {
			return err
		}
		if pl := w.get(ps, "platforms"); pl != nil {
			on, err := tf.platformsMatch(pl)
			if err != nil {
				return err
			}
			if !on {
				continue
			}
		}
		switch {
		case w.get(ps, "cmd") != nil:
			s, ok, err := w.text(w.get(ps, "cmd"))
			if err != nil {
				return err
			}
			if ok {
				t.def = append(t.def, s)
			}
		case w.get(ps, "task") != nil:
			name, err := tf.taskRef(c)
			if err != nil {
				return err
			}
			t.needs = append(t.needs, name)
		case w.get(ps, "defer") != nil:
			d, err := w.deref(w.get(ps, "defer"))
			if err != nil {
				return err
			}
			if d.Kind == yaml.MappingNode {
				name, err := tf.taskRef(d)
				if err != nil {
					return err
				}
				t.needs = append(t.needs, name)
				continue
			}
			s, ok, err := w.text(d)
			if err != nil {
				return err
			}
			if ok {
				t.def = append(t.def, s)
			}
		default:
			return &yamlErr{line: c.Line, rule: RuleNotUnderstood, msg: "a command is neither cmd, task nor defer"}
		}
	}
	return nil
}

// goosNames are the operating systems Taskfile platforms may name.
var goosNames = map[string]bool{"windows": true, "linux": true, "darwin": true, "freebsd": true,
	"openbsd": true, "netbsd": true, "dragonfly": true, "android": true, "ios": true, "solaris": true,
	"illumos": true, "aix": true, "plan9": true, "js": true, "wasip1": true}

// platformsMatch reports whether a platforms list admits the target OS (an entry that
// names only an architecture admits it: the architecture is not known here).
func (tf *taskfile) platformsMatch(n *yaml.Node) (bool, error) {
	items, err := tf.w.list(n)
	if err != nil {
		return false, err
	}
	if len(items) == 0 {
		return true, nil
	}
	for _, it := range items {
		s, ok, err := tf.w.text(it)
		if err != nil {
			return false, err
		}
		if !ok {
			continue
		}
		os, _, _ := strings.Cut(s, "/")
		if os == tf.goos || !goosNames[os] {
			return true, nil
		}
	}
	return false, nil
}

// finish resolves names and builds the tasks.
func (tf *taskfile) finish(in *input) {
	b := tf.b
	known := map[string]string{} // name or alias -> task name
	for _, t := range tf.tasks {
		if t.off || t.skip != "" {
			continue
		}
		known[t.name] = t.name
	}
	for _, t := range tf.tasks {
		if t.off || t.skip != "" {
			continue
		}
		for _, a := range t.aliases {
			if _, taken := known[a]; !taken {
				known[a] = t.name
			}
		}
	}
	context := []string{fileDigest(in.data)}
	for _, t := range tf.tasks {
		if t.off {
			continue
		}
		if t.skip != "" {
			b.warn(t.line, t.skipRule, "task %q: %s; it is skipped", safeName(t.name), t.skip)
			continue
		}
		if !b.okName(t.line, t.name) {
			continue
		}
		if strings.ContainsAny(t.name, "*{}") {
			b.warn(t.line, RuleNotUnderstood, "task %q has a wildcard or template in its name; it is skipped", t.name)
			continue
		}
		var needs []string
		bad := ""
		for _, n := range t.needs {
			n = strings.TrimPrefix(n, ":")
			switch target, ok := known[n]; {
			case ok:
				needs = appendOnce(needs, b.id(target))
			case strings.Contains(n, "{{"):
				bad = "a dependency is computed by a template"
			case strings.Contains(n, ":") && tf.includes:
				needs = appendOnce(needs, b.id(n)) // in an included Taskfile: not resolved here
			default:
				bad = "a dependency names a task that does not exist"
			}
		}
		if bad != "" {
			b.warn(t.line, RuleUnknownTask, "task %q: %s; it is skipped", t.name, bad)
			continue
		}
		if len(t.def) == 0 && len(needs) == 0 {
			continue // nothing to run
		}
		if !b.okTexts(t.line, t.name, t.def, tf.implicit, t.implicit) || !b.room(t.line) {
			continue
		}
		task := Task{Name: t.name, Argv: []string{"task", t.name}, Lang: LangShell, Definition: t.def,
			Needs: needs, Line: t.line, Aliases: t.aliases}
		task.Implicit = append(append([]string{}, tf.implicit...), t.implicit...)
		if len(task.Implicit) == 0 {
			task.Implicit = nil
		}
		if _, ok := checkText(t.desc); ok {
			task.Description = t.desc
		}
		b.add(task, context, t.internal)
	}
}

func appendOnce(l []string, s string) []string {
	if containsString(l, s) {
		return l
	}
	return append(l, s)
}
