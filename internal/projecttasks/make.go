package projecttasks

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// parseMake reads the explicit targets of a Makefile (docs/project-tasks.md,
// "Makefile"). A target is a task when it has a recipe or a prerequisite that is such a
// target; its recipe lines (tab-indented, continuation lines joined, make's @ - +
// prefixes removed) are its Definition, its target prerequisites its Needs, and it runs
// as [make, <target>]. Pattern rules, special and dot targets, targets holding $ or
// wildcards, variable assignments and directives are not tasks; targets defined inside
// a conditional are skipped with a warning, since which definition make sees depends
// on its evaluation. A line make would refuse (no separator) skips the whole file.
func parseMake(in *input) output {
	b := newBuilder(in, SourceMake)
	data := bytes.TrimPrefix(in.data, bom)
	if !utf8.Valid(data) {
		b.warn(0, RuleEncoding, "the file is not valid UTF-8; no target is read")
		return b.out
	}
	p := &makeParser{b: b, targets: map[string]*makeTarget{}}
	if !p.parse(splitLines(string(data))) {
		return output{warns: b.out.warns}
	}
	// A target is runnable when it has a recipe or needs a runnable target.
	state := map[*makeTarget]int{} // 0 unknown, 1 visiting, 2 runnable, 3 not
	var runnable func(t *makeTarget) bool
	runnable = func(t *makeTarget) bool {
		switch state[t] {
		case 1:
			return false // a cycle; make drops it too
		case 2:
			return true
		case 3:
			return false
		}
		state[t] = 1
		ok := len(t.recipe()) > 0
		for _, l := range t.prereqs {
			for _, n := range l {
				if d := p.targets[n]; d != nil && runnable(d) {
					ok = true
				}
			}
		}
		state[t] = 3
		if ok {
			state[t] = 2
		}
		return ok
	}
	if !b.okTexts(0, "(the file's other rules)", p.implicit) {
		return output{warns: b.out.warns}
	}
	context := []string{fileDigest(in.data)}
	for _, t := range p.order {
		if !runnable(t) {
			continue
		}
		if t.double {
			// Every double-colon rule's recipe runs.
		} else if blocks := t.withRecipe(); len(blocks) > 1 {
			b.warn(blocks[len(blocks)-1].line, RuleOverride, "target %q gets a second recipe; make uses the last one", t.name)
		}
		recipe := t.recipe()
		if !b.okTexts(t.line, t.name, recipe) || !b.room(t.line) {
			continue
		}
		task := Task{Name: t.name, Argv: []string{"make", t.name}, Lang: LangShell,
			Definition: recipe, Implicit: p.implicit, Line: t.line}
		seen := map[string]bool{}
		for _, l := range t.prereqs {
			for _, n := range l {
				if d := p.targets[n]; d != nil && !seen[n] && runnable(d) {
					seen[n] = true
					task.Needs = append(task.Needs, b.id(n))
				}
			}
		}
		b.add(task, context, false)
	}
	return b.out
}

// Budgets of one Makefile: more explicit targets, or more prerequisites on one
// target, than a task list could use are refused rather than walked (a rule line
// with many targets and many prerequisites would otherwise cost their product).
const (
	maxMakeTargets = 4 * MaxTasks
	maxMakePrereqs = 4096
)

type makeTarget struct {
	name string
	line int
	// prereqs are the prerequisite lists of the rules naming the target, shared with
	// the other targets of each rule; nPrereqs counts them.
	prereqs  [][]string
	nPrereqs int
	// blocks are the recipes of the rules naming the target, in order, shared with the
	// other targets of each rule.
	blocks []*makeBlock
	double bool
}

// makeBlock is the recipe of one rule line.
type makeBlock struct {
	line  int
	lines []string
}

func (t *makeTarget) withRecipe() []*makeBlock {
	var out []*makeBlock
	for _, bl := range t.blocks {
		if len(bl.lines) > 0 {
			out = append(out, bl)
		}
	}
	return out
}

// recipe is what make runs for the target: every double-colon rule's recipe, or the
// last recipe a single-colon rule gave it.
func (t *makeTarget) recipe() []string {
	blocks := t.withRecipe()
	if len(blocks) == 0 {
		return nil
	}
	if !t.double {
		return blocks[len(blocks)-1].lines
	}
	var out []string
	for _, bl := range blocks {
		out = append(out, bl.lines...)
	}
	return out
}

type makeParser struct {
	b        *builder
	targets  map[string]*makeTarget
	order    []*makeTarget
	implicit []string
	warned   map[string]bool
}

// parse walks the lines; false when make would refuse the file.
func (p *makeParser) parse(lines []string) bool {
	var current *makeBlock // the recipe being read; nil when its rule names no task
	inRule := false
	cond, define := 0, 0
	var discard bool // the current rule is not a task: its recipe goes to implicit
	includeWarned := false
	for i := 0; i < len(lines); i++ {
		ln, lineNo := lines[i], i+1
		if define > 0 {
			switch w := firstWord(strings.TrimSpace(ln)); w {
			case "endef":
				define--
			case "define":
				define++
			}
			continue
		}
		if inRule && strings.HasPrefix(ln, "\t") {
			parts := []string{ln[1:]}
			for continued(parts[len(parts)-1]) && i+1 < len(lines) {
				i++
				parts = append(parts, strings.TrimPrefix(lines[i], "\t"))
			}
			text := strings.Join(parts, "\n")
			cmd := strings.TrimLeft(text, " \t@-+")
			if strings.TrimSpace(cmd) == "" {
				continue
			}
			if discard || current == nil {
				p.implicit = append(p.implicit, cmd)
				continue
			}
			current.lines = append(current.lines, cmd)
			continue
		}
		parts := []string{ln}
		for continued(parts[len(parts)-1]) && i+1 < len(lines) {
			last := parts[len(parts)-1]
			parts[len(parts)-1] = strings.TrimRight(last[:len(last)-1], " \t")
			i++
			parts = append(parts, strings.TrimLeft(lines[i], " \t"))
		}
		logical := strings.Join(parts, " ")
		text := strings.TrimSpace(stripMakeComment(logical))
		if text == "" {
			continue // blank and comment lines keep the recipe going
		}
		word := firstWord(text)
		if strings.Contains(text, "$(shell") || strings.Contains(text, "${shell") {
			p.implicit = append(p.implicit, text)
		}
		switch word {
		case "ifeq", "ifneq", "ifdef", "ifndef":
			cond++
			continue // a conditional inside a recipe does not end it
		case "else":
			continue
		case "endif":
			if cond > 0 {
				cond--
			}
			continue
		}
		inRule, current, discard = false, nil, false
		switch word {
		case "define":
			define++
			continue
		case "endef":
			continue
		case "include", "-include", "sinclude":
			if !includeWarned {
				includeWarned = true
				p.b.warn(lineNo, RuleInclude, "the Makefile includes other files, which are not read: what they define is not listed")
			}
			continue
		case "export", "unexport", "override", "private", "vpath", "undefine", "load", "-load":
			if firstWord(strings.TrimSpace(text[len(word):])) == "define" {
				define++
			} else if op := assignmentOp(text); op == "!=" {
				p.implicit = append(p.implicit, text)
			}
			continue
		}
		kind, at := makeLineKind(text)
		switch kind {
		case makeAssign:
			if strings.TrimSpace(text[:at]) == ".RECIPEPREFIX" {
				p.b.warn(lineNo, RuleRecipePrefix, "the Makefile changes .RECIPEPREFIX, which this reader does not follow; no target is read")
				return false
			}
			if assignmentOp(text) == "!=" {
				p.implicit = append(p.implicit, text)
			}
			continue
		case makeOther:
			if strings.HasPrefix(text, "$(") || strings.HasPrefix(text, "${") {
				p.b.warn(lineNo, RuleNotUnderstood, "a line make evaluates ($(…)) may define rules this reader does not see")
				continue
			}
			p.b.warn(lineNo, RuleSyntax, "a line is neither a rule, an assignment nor a directive (make stops at it: missing separator); no target is read")
			return false
		}
		inRule = true
		targetsText, rest := text[:at], text[at+1:]
		double := false
		if strings.HasPrefix(rest, ":") {
			double, rest = true, rest[1:]
		}
		targetsText = strings.TrimSuffix(strings.TrimSpace(targetsText), "&")
		var inline string
		if k := topLevelIndex(rest, ';'); k >= 0 {
			inline, rest = strings.TrimLeft(rest[k+1:], " \t@-+"), rest[:k]
		}
		if topLevelIndex(rest, '=') >= 0 {
			// A target-specific variable (target: VAR = value), not a rule.
			inRule = false
			continue
		}
		if topLevelIndex(rest, ':') >= 0 {
			// A static pattern rule (objs: %.o: %.c): its recipe is a pattern's.
			discard = true
		}
		var prereqs []string
		for _, f := range strings.Fields(rest) {
			if f != "|" {
				prereqs = append(prereqs, f)
			}
		}
		block := &makeBlock{line: lineNo}
		named := false
		for _, name := range strings.Fields(targetsText) {
			if discard || !explicitTarget(name) {
				continue
			}
			if cond > 0 {
				if !p.warnedOnce(name) {
					p.b.warn(lineNo, RuleConditional, "target %q is defined inside a conditional (ifeq/ifdef); which definition make sees depends on its evaluation, so it is skipped", name)
				}
				continue
			}
			if r, msg, ok := checkName(name); !ok {
				p.b.warn(lineNo, r, "%s; the target is skipped", msg)
				continue
			}
			t := p.targets[name]
			if t == nil {
				if len(p.order) >= maxMakeTargets {
					p.b.warn(lineNo, RuleTooMany, "the Makefile names more than %d targets; no target is read", maxMakeTargets)
					return false
				}
				t = &makeTarget{name: name, line: lineNo, double: double}
				p.targets[name] = t
				p.order = append(p.order, t)
			}
			if t.nPrereqs += len(prereqs); t.nPrereqs > maxMakePrereqs {
				p.b.warn(lineNo, RuleTooMany, "target %q has more than %d prerequisites; no target is read", name, maxMakePrereqs)
				return false
			}
			if len(prereqs) > 0 {
				t.prereqs = append(t.prereqs, prereqs)
			}
			t.blocks = append(t.blocks, block)
			named = true
		}
		if !named {
			discard = true
		} else {
			current = block
		}
		if strings.TrimSpace(inline) != "" {
			if discard {
				p.implicit = append(p.implicit, inline)
			} else {
				block.lines = append(block.lines, inline)
			}
		}
	}
	return true
}

func (p *makeParser) warnedOnce(name string) bool {
	if p.warned == nil {
		p.warned = map[string]bool{}
	}
	w := p.warned[name]
	p.warned[name] = true
	return w
}

// explicitTarget excludes what is not a verb a user runs: special and dot targets
// (.PHONY, .c.o), pattern rules (%), targets computed by make ($), wildcards and
// archive members.
func explicitTarget(name string) bool {
	return !strings.HasPrefix(name, ".") && !strings.ContainsAny(name, "%$*?[]()\\")
}

type makeKind int

const (
	makeOther makeKind = iota
	makeAssign
	makeRule
)

// makeLineKind tells an assignment from a rule by the first '=' or ':' outside $(…)
// and ${…}; at is the position of that '=' operator's start or of the rule's colon.
func makeLineKind(s string) (makeKind, int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
			depth++
			i++
		case depth > 0 && (c == ')' || c == '}'):
			depth--
		case depth > 0:
		case c == '=':
			if i > 0 && strings.IndexByte("?+!", s[i-1]) >= 0 {
				return makeAssign, i - 1
			}
			return makeAssign, i
		case c == ':':
			j := i
			for j < len(s) && s[j] == ':' {
				j++
			}
			if j < len(s) && s[j] == '=' {
				return makeAssign, i
			}
			return makeRule, i
		}
	}
	return makeOther, 0
}

// assignmentOp is the operator of an assignment line ("=", ":=", "!=", …), "" if none.
func assignmentOp(s string) string {
	kind, at := makeLineKind(s)
	if kind != makeAssign {
		return ""
	}
	end := strings.IndexByte(s[at:], '=')
	return s[at : at+end+1]
}

// topLevelIndex is the index of c in s outside $(…) and ${…}, or -1.
func topLevelIndex(s string, c byte) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
			depth++
			i++
		case depth > 0 && (s[i] == ')' || s[i] == '}'):
			depth--
		case depth == 0 && s[i] == c:
			return i
		}
	}
	return -1
}

// stripMakeComment cuts a line at the first '#' that is not escaped.
func stripMakeComment(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '#':
			return s[:i]
		}
	}
	return s
}

// continued reports a line ending in an odd number of backslashes.
func continued(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

func firstWord(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i]
	}
	return s
}

// splitLines splits text into lines without their LF or CRLF ends.
func splitLines(s string) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
