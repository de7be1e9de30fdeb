package projecttasks

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// parseJust reads a justfile's recipes (docs/project-tasks.md, "justfile"). A recipe
// is a task run as [just, <recipe>]; its body lines (indentation removed, just's @ and -
// prefixes removed, continuation lines joined) are its Definition, or, for a #! or
// [script] recipe, the interpreter and the script. Recipes whose name starts with _
// or marked [private] are helpers; recipes for another OS ([windows], [unix], …) are
// left out; aliases are kept on their recipe. What just itself would refuse (an
// unknown dependency, a recipe defined twice, a line that is nothing just knows) skips
// the whole file, since just would run none of it; a recipe this reader does not
// understand (an unknown attribute, a header it cannot parse, inconsistent
// indentation) skips that recipe.
func parseJust(in *input) output {
	b := newBuilder(in, SourceJust)
	data := bytes.TrimPrefix(in.data, bom)
	if !utf8.Valid(data) {
		b.warn(0, RuleEncoding, "the file is not valid UTF-8; no recipe is read")
		return b.out
	}
	p := &justParser{b: b, lines: splitLines(string(data)), goos: in.goos}
	if !p.parse() {
		return output{warns: b.out.warns}
	}
	return p.finish(in)
}

type justRecipe struct {
	name       string
	line       int
	quiet      bool
	params     []Param
	deps       []string
	body       []string
	lang       Lang
	private    bool
	doc        string
	group      string
	implicit   []string
	enabled    bool
	skipReason string // set when this reader does not understand the recipe
	skipRule   Rule
}

type justAlias struct {
	name, target string
	line         int
}

type justAttr struct {
	name string
	arg  string
	raw  string
}

type justParser struct {
	b        *builder
	lines    []string
	goos     string
	recipes  []*justRecipe
	aliases  []justAlias
	implicit []string
	imports  bool
	dupOK    bool
}

// parse reads the items of the file; false when just would refuse it.
func (p *justParser) parse() bool {
	var attrs []justAttr
	var attrErr string
	doc := ""
	for i := 0; i < len(p.lines); {
		ln, lineNo := p.lines[i], i+1
		trimmed := strings.TrimSpace(ln)
		switch {
		case trimmed == "":
			doc = ""
			i++
			continue
		case ln[0] == ' ' || ln[0] == '\t':
			p.b.warn(lineNo, RuleSyntax, "an indented line belongs to no recipe (just refuses the file); no recipe is read")
			return false
		case strings.HasPrefix(ln, "#"):
			if !strings.HasPrefix(ln, "#!") {
				doc = strings.TrimSpace(strings.TrimPrefix(ln, "#"))
			}
			i++
			continue
		case strings.HasPrefix(ln, "["):
			a, err := parseAttrs(ln)
			if err != "" && attrErr == "" {
				attrErr = err
			}
			attrs = append(attrs, a...)
			i++
			continue
		}
		word, _ := justIdent(ln, 0)
		rest := strings.TrimSpace(ln[len(word):])
		switch {
		case word == "set" && rest != "" && !strings.HasPrefix(rest, ":"):
			name, after := justIdent(rest, 0)
			if name == "allow-duplicate-recipes" {
				v := strings.TrimSpace(rest[after:])
				p.dupOK = v == "" || strings.HasSuffix(v, "true")
			}
			i = p.expression(i, ln)
		case word == "alias" && rest != "" && !strings.HasPrefix(rest, ":"):
			name, after := justIdent(rest, 0)
			op := strings.TrimSpace(rest[after:])
			if name == "" || !strings.HasPrefix(op, ":=") {
				p.b.warn(lineNo, RuleSyntax, "an alias line is not `alias name := recipe` (just refuses the file); no recipe is read")
				return false
			}
			target, _ := justIdent(strings.TrimSpace(op[2:]), 0)
			p.aliases = append(p.aliases, justAlias{name: name, target: target, line: lineNo})
			i++
		case (word == "import" || word == "mod") && !strings.HasPrefix(rest, ":"):
			if !p.imports {
				p.imports = true
				p.b.warn(lineNo, RuleInclude, "the justfile imports other files or modules, which are not read: their recipes are not listed")
			}
			i++
		case word == "unexport":
			i++
		case word == "export" && !strings.HasPrefix(rest, ":"):
			i = p.expression(i, ln)
		case word != "" && strings.HasPrefix(rest, ":="):
			i = p.expression(i, ln)
		case word != "" || strings.HasPrefix(ln, "@"):
			r, next := p.recipe(i, attrs, attrErr, doc)
			if r == nil {
				return false
			}
			p.recipes = append(p.recipes, r)
			i = next
		default:
			p.b.warn(lineNo, RuleSyntax, "a line is nothing just knows (just refuses the file); no recipe is read")
			return false
		}
		attrs, attrErr, doc = nil, "", ""
	}
	return true
}

// expression consumes an assignment or setting that may continue over lines inside
// brackets, parentheses, braces or triple-quoted strings, and keeps it as an implicit
// text when just would run something to evaluate it (a backtick or shell()).
func (p *justParser) expression(i int, first string) int {
	start := i
	st := exprState{}
	st.scan(first)
	i++
	for st.open() && i < len(p.lines) {
		st.scan("\n" + p.lines[i])
		i++
	}
	text := strings.Join(p.lines[start:i], "\n")
	if strings.Contains(text, "`") || strings.Contains(text, "shell(") {
		p.implicit = append(p.implicit, text)
	}
	return i
}

// exprState follows quotes and brackets across the lines of a just expression.
type exprState struct {
	quote string // the open quote: ', ", `, ''', """ or ```
	depth int
}

func (s *exprState) open() bool { return s.quote != "" || s.depth > 0 }

func (s *exprState) scan(t string) {
	for i := 0; i < len(t); i++ {
		if s.quote != "" {
			switch {
			case strings.HasPrefix(t[i:], s.quote):
				i += len(s.quote) - 1
				s.quote = ""
			case s.quote == `"` && t[i] == '\\':
				i++
			}
			continue
		}
		switch c := t[i]; c {
		case '#':
			return // a comment to the end of the line
		case '\'', '"', '`':
			q := string(c)
			if strings.HasPrefix(t[i:], q+q+q) {
				q = q + q + q
			}
			s.quote = q
			i += len(q) - 1
		case '(', '[', '{':
			s.depth++
		case ')', ']', '}':
			if s.depth > 0 {
				s.depth--
			}
		}
	}
	if len(s.quote) == 1 {
		s.quote = "" // a single-quoted string cannot span lines; just will complain
	}
}

// knownAttrs are the recipe attributes this reader understands (just's own list).
var knownAttrs = map[string]bool{
	"private": true, "no-cd": true, "no-exit-message": true, "exit-message": true, "no-quiet": true,
	"linux": true, "macos": true, "windows": true, "unix": true, "openbsd": true, "freebsd": true,
	"netbsd": true, "dragonfly": true, "android": true, "confirm": true, "doc": true, "group": true,
	"positional-arguments": true, "script": true, "extension": true, "working-directory": true,
	"parallel": true, "default": true, "metadata": true, "arg": true,
}

// osAttrs maps a GOOS to the OS attributes that enable a recipe on it.
func osEnabled(goos string, attrs []justAttr) bool {
	any := false
	for _, a := range attrs {
		switch a.name {
		case "linux", "macos", "windows", "unix", "openbsd", "freebsd", "netbsd", "dragonfly", "android":
			any = true
			if a.name == goos || (a.name == "macos" && goos == "darwin") ||
				(a.name == "unix" && goos != "windows" && goos != "plan9" && goos != "js" && goos != "wasip1") {
				return true
			}
		}
	}
	return !any
}

// parseAttrs reads one attribute line: [a, b('x'), c: 'y'] (possibly several groups).
func parseAttrs(ln string) ([]justAttr, string) {
	var out []justAttr
	s := strings.TrimSpace(ln)
	for s != "" {
		if s[0] == '#' {
			break
		}
		if s[0] != '[' {
			return out, "an attribute line holds something after its brackets"
		}
		end := closing(s, 0, '[', ']')
		if end < 0 {
			return out, "an attribute is not closed"
		}
		for _, part := range splitTop(s[1:end], ',') {
			part = strings.TrimSpace(part)
			name, j := justIdent(part, 0)
			if name == "" {
				return out, "an attribute has no name"
			}
			a := justAttr{name: name, raw: part}
			rest := strings.TrimSpace(part[j:])
			switch {
			case rest == "":
			case strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")"):
				args := splitTop(rest[1:len(rest)-1], ',')
				if len(args) > 0 {
					a.arg = unquote(strings.TrimSpace(args[0]))
				}
			case strings.HasPrefix(rest, ":"):
				a.arg = unquote(strings.TrimSpace(rest[1:]))
			default:
				return out, "an attribute is not written name, name(args) or name: arg"
			}
			out = append(out, a)
		}
		s = strings.TrimSpace(s[end+1:])
	}
	return out, ""
}

// recipe reads a recipe header at line i and its body; nil when just would refuse the
// file. A recipe this reader does not understand comes back with skipReason set.
func (p *justParser) recipe(i int, attrs []justAttr, attrErr, doc string) (*justRecipe, int) {
	ln, lineNo := p.lines[i], i+1
	r := &justRecipe{line: lineNo, lang: LangShell, doc: doc}
	// The body: the indented lines that follow (blank lines inside it included).
	j := i + 1
	var raw []string
	for k := j; k < len(p.lines); k++ {
		l := p.lines[k]
		if strings.TrimSpace(l) == "" {
			continue
		}
		if l[0] != ' ' && l[0] != '\t' {
			break
		}
		raw = p.lines[j : k+1]
	}
	next := j + len(raw)
	for _, a := range attrs {
		switch {
		case !knownAttrs[a.name]:
			r.skip(RuleNotUnderstood, "an attribute this reader does not know")
		case a.name == "private":
			r.private = true
		case a.name == "doc":
			r.doc = a.arg
		case a.name == "group" && r.group == "":
			r.group = a.arg
		case a.name == "script":
			r.lang = LangScript
		case a.name == "working-directory":
			if _, err := relCwd(".", a.arg); err != nil || a.arg == "" {
				r.skip(RuleCwd, "[working-directory] is not a relative path inside the directory read")
			}
		}
	}
	if attrErr != "" {
		r.skip(RuleNotUnderstood, attrErr)
	}
	r.enabled = osEnabled(p.goos, attrs)
	// The header: @? name params* : deps
	s := ln
	pos := 0
	if strings.HasPrefix(s, "@") {
		r.quiet, pos = true, 1
	}
	r.name, pos = justIdent(s, pos)
	if r.name == "" {
		p.b.warn(lineNo, RuleSyntax, "a recipe header has no name (just refuses the file); no recipe is read")
		return nil, next
	}
	r.private = r.private || strings.HasPrefix(r.name, "_")
	if err := p.header(r, s, pos); err != "" {
		r.skip(RuleNotUnderstood, err)
	}
	// Body lines: one indentation, removed.
	if len(raw) > 0 {
		var indent string
		for _, l := range raw {
			if strings.TrimSpace(l) != "" {
				indent = leadingSpace(l)
				break
			}
		}
		var lines []string
		for _, l := range raw {
			if strings.TrimSpace(l) == "" {
				lines = append(lines, "")
				continue
			}
			if !strings.HasPrefix(l, indent) {
				r.skip(RuleNotUnderstood, "the recipe's lines are indented inconsistently")
				break
			}
			lines = append(lines, l[len(indent):])
		}
		for len(lines) > 0 && lines[0] == "" {
			lines = lines[1:]
		}
		if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
			r.lang = LangScript
		}
		if r.lang == LangScript {
			interp := "[script]"
			for _, a := range attrs {
				if a.name == "script" {
					interp = "[" + a.raw + "]"
				}
			}
			body := lines
			if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
				interp, body = lines[0], lines[1:]
			}
			r.body = []string{interp, strings.Join(body, "\n")}
		} else {
			for k := 0; k < len(lines); k++ {
				from := k
				for continued(lines[k]) && k+1 < len(lines) {
					k++
				}
				l := strings.Join(lines[from:k+1], "\n")
				l = strings.TrimLeft(l, "@-")
				if strings.TrimSpace(l) != "" {
					r.body = append(r.body, l)
				}
			}
		}
	} else if r.lang == LangScript {
		r.body = []string{"[script]", ""}
	}
	return r, next
}

func (r *justRecipe) skip(rule Rule, why string) {
	if r.skipReason == "" {
		r.skipRule, r.skipReason = rule, why
	}
}

// header parses the parameters and dependencies after the name.
func (p *justParser) header(r *justRecipe, s string, pos int) string {
	for {
		pos = skipSpace(s, pos)
		if pos >= len(s) {
			return "a recipe header has no ':'"
		}
		if s[pos] == ':' {
			if strings.HasPrefix(s[pos:], ":=") {
				return "a recipe header is an assignment"
			}
			pos++
			break
		}
		var prm Param
		if s[pos] == '+' || s[pos] == '*' {
			prm.Variadic = s[pos : pos+1]
			pos++
		}
		if pos < len(s) && s[pos] == '$' {
			pos++
		}
		prm.Name, pos = justIdent(s, pos)
		if prm.Name == "" {
			return "a recipe parameter has no name"
		}
		if pos < len(s) && s[pos] == '=' {
			end, ok := justValue(s, pos+1)
			if !ok {
				return "a parameter's default is not understood"
			}
			prm.Default = s[pos+1 : end]
			if strings.Contains(prm.Default, "`") || strings.Contains(prm.Default, "shell(") {
				r.implicit = append(r.implicit, prm.Default)
			}
			pos = end
		}
		prm.Required = prm.Default == "" && prm.Variadic != "*"
		r.params = append(r.params, prm)
	}
	for {
		pos = skipSpace(s, pos)
		switch {
		case pos >= len(s) || s[pos] == '#':
			return ""
		case strings.HasPrefix(s[pos:], "&&"):
			pos += 2
		case s[pos] == '(':
			end := closing(s, pos, '(', ')')
			if end < 0 {
				return "a dependency's parentheses are not closed"
			}
			name, _ := justIdent(strings.TrimSpace(s[pos+1:end]), 0)
			if name == "" {
				return "a dependency has no name"
			}
			r.deps = append(r.deps, name)
			pos = end + 1
		default:
			name, end := justIdent(s, pos)
			if name == "" {
				return "a dependency is not a recipe name"
			}
			r.deps = append(r.deps, name)
			pos = end
		}
	}
}

// finish turns the recipes into tasks, checking what just checks for the whole file.
func (p *justParser) finish(in *input) output {
	b := p.b
	byName := map[string]*justRecipe{}
	exists := map[string]bool{}
	for _, r := range p.recipes {
		exists[r.name] = true
		if !r.enabled {
			continue
		}
		if first, dup := byName[r.name]; dup && !p.dupOK {
			b.warn(r.line, RuleDuplicate, "recipe %q is defined twice (first at line %d; just refuses the file); no recipe is read", safeName(r.name), first.line)
			return output{warns: b.out.warns}
		}
		byName[r.name] = r
	}
	aliases := map[string][]string{}
	for _, a := range p.aliases {
		if _, ok := byName[a.target]; !ok {
			if p.imports || exists[a.target] {
				continue
			}
			b.warn(a.line, RuleUnknownTask, "an alias names no recipe (just refuses the file); no recipe is read")
			return output{warns: b.out.warns}
		}
		if _, _, ok := checkName(a.name); ok {
			aliases[a.target] = append(aliases[a.target], a.name)
		}
	}
	for _, r := range p.recipes {
		for _, d := range r.deps {
			if !exists[d] && !p.imports && r.enabled {
				b.warn(r.line, RuleUnknownTask, "recipe %q depends on a recipe that does not exist (just refuses the file); no recipe is read", safeName(r.name))
				return output{warns: b.out.warns}
			}
		}
	}
	context := []string{fileDigest(in.data)}
	for _, r := range p.recipes {
		if !r.enabled || byName[r.name] != r {
			continue
		}
		if r.skipReason != "" {
			b.warn(r.line, r.skipRule, "recipe %q: %s; it is skipped", safeName(r.name), r.skipReason)
			continue
		}
		if !b.okName(r.line, r.name) || !b.okTexts(r.line, r.name, r.body, p.implicit, r.implicit) || !b.room(r.line) {
			continue
		}
		t := Task{Name: r.name, Argv: []string{"just", r.name}, Lang: r.lang, Definition: r.body,
			Line: r.line, Params: r.params, Aliases: aliases[r.name], Group: r.group}
		if _, ok := checkText(r.doc); ok {
			t.Description = r.doc
		}
		if _, _, ok := checkName(t.Group); !ok {
			t.Group = ""
		}
		t.Implicit = append(append([]string{}, p.implicit...), r.implicit...)
		if len(t.Implicit) == 0 {
			t.Implicit = nil
		}
		for _, d := range r.deps {
			id := b.id(d)
			if !containsString(t.Needs, id) {
				t.Needs = append(t.Needs, id)
			}
		}
		b.add(t, context, r.private)
	}
	return b.out
}

// safeName is a name fit for a warning: the name when it passes the name rules, else
// a placeholder.
func safeName(n string) string {
	if _, _, ok := checkName(n); ok {
		return n
	}
	return "(unprintable)"
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// justIdent reads a just identifier ([A-Za-z_][A-Za-z0-9_-]*) at s[i:].
func justIdent(s string, i int) (string, int) {
	j := i
	for j < len(s) {
		c := s[j]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (j > i && (c == '-' || c >= '0' && c <= '9')) {
			j++
			continue
		}
		break
	}
	return s[i:j], j
}

// justValue reads one default value at s[i:]: a string, a backtick, a name, a call
// name(…) or a parenthesized expression; it returns the end.
func justValue(s string, i int) (int, bool) {
	if i >= len(s) {
		return i, false
	}
	switch s[i] {
	case '\'', '"', '`':
		return stringEnd(s, i)
	case '(':
		end := closing(s, i, '(', ')')
		return end + 1, end >= 0
	}
	name, j := justIdent(s, i)
	if name == "" {
		return i, false
	}
	if j < len(s) && s[j] == '(' {
		end := closing(s, j, '(', ')')
		return end + 1, end >= 0
	}
	return j, true
}

// stringEnd is the end of the (possibly triple-) quoted string starting at s[i].
func stringEnd(s string, i int) (int, bool) {
	q := s[i : i+1]
	if strings.HasPrefix(s[i:], q+q+q) {
		q = q + q + q
	}
	for j := i + len(q); j < len(s); j++ {
		if q == `"` && s[j] == '\\' {
			j++
			continue
		}
		if strings.HasPrefix(s[j:], q) {
			return j + len(q), true
		}
	}
	return len(s), false
}

// closing is the index of the bracket closing the one at s[i], skipping strings, or -1.
func closing(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; c {
		case '\'', '"', '`':
			end, ok := stringEnd(s, j)
			if !ok {
				return -1
			}
			j = end - 1
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// splitTop splits s at sep outside strings and brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for j := 0; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\'' || c == '"' || c == '`':
			end, _ := stringEnd(s, j)
			j = end - 1
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:j])
			start = j + 1
		}
	}
	return append(out, s[start:])
}

// unquote removes one level of just string quotes (escapes of double-quoted strings
// are kept as written except \" and \\).
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		inner := s[1 : len(s)-1]
		if s[0] == '"' {
			inner = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(inner)
		}
		return inner
	}
	return s
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
