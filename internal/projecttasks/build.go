package projecttasks

import (
	"bytes"
	"fmt"
	"path"
	"strings"
)

// builder holds what every parser does the same way: the name and text rules, the
// budget, the identity and the warnings.
type builder struct {
	in  *input
	src Source
	out output
	// full is set once MaxTasks is reached; the rest of the file is skipped.
	full bool
}

func newBuilder(in *input, src Source) *builder { return &builder{in: in, src: src} }

func (b *builder) warn(line int, rule Rule, format string, args ...any) {
	b.out.warn(b.in.file, line, rule, format, args...)
}

// okName applies the name rules; a refused name is a warning that never quotes it.
func (b *builder) okName(line int, name string) bool {
	if rule, msg, ok := checkName(name); !ok {
		b.warn(line, rule, "%s; the task is skipped", msg)
		return false
	}
	return true
}

// okTexts applies the text rules to every text of a task.
func (b *builder) okTexts(line int, name string, lists ...[]string) bool {
	for _, l := range lists {
		for _, s := range l {
			if msg, ok := checkText(s); !ok {
				b.warn(line, RuleText, "task %q: %s; the task is skipped", name, msg)
				return false
			}
		}
	}
	return true
}

// room reports whether another task fits the budget, warning once when it does not.
func (b *builder) room(line int) bool {
	if b.full {
		return false
	}
	if b.out.count() >= MaxTasks {
		b.full = true
		b.warn(line, RuleTooMany, "more than %d tasks: this one and the rest of the file are skipped", MaxTasks)
		return false
	}
	return true
}

// add completes t (id, source, file, cwd default, identity) and keeps it as an offered
// task or a helper.
func (b *builder) add(t Task, context []string, helper bool) {
	t.Source = b.src
	t.ID = string(b.src) + ":" + t.Name
	t.File = b.in.file
	if t.Cwd == "" {
		t.Cwd = b.in.dir
	}
	if t.Definition == nil {
		t.Definition = []string{}
	}
	t.DefinitionSHA256 = identity(&t, context)
	if helper {
		b.out.helpers = append(b.out.helpers, t)
	} else {
		b.out.tasks = append(b.out.tasks, t)
	}
}

func (b *builder) id(name string) string { return string(b.src) + ":" + name }

// lineAt is the 1-based line of byte offset off in data.
func lineAt(data []byte, off int) int {
	off = max(0, min(off, len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// relCwd turns a working directory a file gives (relative to the directory read, slash
// or backslash separated) into a clean slash path relative to the project root, or
// reports that it leaves the directory read.
func relCwd(dir, cwd string) (string, error) {
	c := strings.ReplaceAll(cwd, `\`, "/")
	if c == "" {
		return dir, nil
	}
	if strings.HasPrefix(c, "/") || strings.Contains(c, ":") || strings.ContainsRune(c, 0) {
		return "", fmt.Errorf("the working directory is not a relative path")
	}
	c = path.Clean(c)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("the working directory leaves the directory read")
	}
	return path.Join(dir, c), nil
}
