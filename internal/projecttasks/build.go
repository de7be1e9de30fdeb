package projecttasks

import (
	"bytes"
	"fmt"
	"path"
	"sort"
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
	// checked remembers the lists okTexts has judged.
	checked map[listKey]bool
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

// okTexts applies the text rules to every text of a task, and the size budget to each
// list: a list longer than MaxTextBytes is refused. A list shared by many tasks (a
// Makefile's implicit texts, one recipe named by many targets) is checked once.
func (b *builder) okTexts(line int, name string, lists ...[]string) bool {
	for _, l := range lists {
		if len(l) == 0 {
			continue
		}
		key := listKey{&l[0], len(l)}
		if ok, done := b.checked[key]; done {
			if !ok {
				b.warn(line, RuleText, "task %q: a definition breaks the text rules; the task is skipped", safeName(name))
				return false
			}
			continue
		}
		if b.checked == nil {
			b.checked = map[listKey]bool{}
		}
		size := 0
		for _, s := range l {
			size += len(s)
		}
		if size > MaxTextBytes {
			b.checked[key] = false
			b.warn(line, RuleTooLarge, "task %q: its texts are longer than %d bytes; the task is skipped", safeName(name), MaxTextBytes)
			return false
		}
		for _, s := range l {
			if msg, ok := checkText(s); !ok {
				b.checked[key] = false
				b.warn(line, RuleText, "task %q: %s; the task is skipped", safeName(name), msg)
				return false
			}
		}
		b.checked[key] = true
	}
	return true
}

// listKey identifies a slice by its first element and length.
type listKey struct {
	first *string
	n     int
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

// lineIndex finds the line of a byte offset in one file: the offsets of its line
// feeds, searched, so that naming the line of each of many tasks stays linear.
type lineIndex []int

func newLineIndex(data []byte) lineIndex {
	var idx lineIndex
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return idx
		}
		idx = append(idx, off+i)
		off += i + 1
	}
}

// at is the 1-based line of byte offset off.
func (idx lineIndex) at(off int) int {
	return 1 + sort.SearchInts(idx, off)
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
