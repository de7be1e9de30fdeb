package classify

import (
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// This file reads a command the way bash reads it (docs/safety/shell-classifier.md,
// "Normalisations", the bash reading): it parses the command with bash's grammar
// (mvdan.cc/sh/v3/syntax) and writes, for every simple command found anywhere in it,
// the words bash would execute, after backslash-newline removal, quote removal
// ('…', "…", $'…', $"…", backslashes) and brace expansion. The forbidden rules then
// read that text as one more view of the command.
//
// Nothing is looked up: a parameter, a command substitution or an arithmetic
// expansion stays as its source text (so $WINDIR still names the Windows directory),
// except that ${name:-word} and ${name=word} read as word, the value of an unset
// name. A glob in a command's name is matched against the forbidden names instead of
// files, since bash would run whichever file it matches. A string that bash runs as a
// script (bash -c, sh -c, eval, a here-string or here-document read by a shell) is
// parsed again, maxBashDepth levels deep.
//
// The reading is bounded: one word's expansions may take wordLimit of its length and
// the whole reading bashLimit of the command's; past either the view is cut short and
// reported incomplete (the caller then asks, unless what was read is forbidden).
//
// The expand package of the same module is not used: it (and the syntax package's
// own dependency fileutil) compile regular expressions when a process starts, would
// look up user names for ~user and read the environment when asked to; the few
// expansions needed here are written out below, with the limits above.

// maxBashDepth bounds scripts inside scripts (bash -c "bash -c '…'").
const maxBashDepth = 3

// bashLimit is the most bytes the bash reading of an n-byte command may produce: its
// view plus the scripts it parses again.
func bashLimit(n int) int { return 16*n + 1024 }

// wordLimit is the work one word of n bytes may cost: the bytes of its expansions,
// plus one for every piece of a word visited while expanding it.
func wordLimit(n int) int { return 8*n + 64 }

// bashSyntax is a quick test for the constructs the bash reading could read
// differently from the other views: without any of them, bash's words are the
// command's own tokens, which the raw view already reads. (bash drops NUL bytes:
// r<NUL>m is rm.)
func bashSyntax(s string) bool {
	if strings.ContainsAny(s, "\\$'\"{*?[<>`\x00") {
		return true
	}
	for i := 0; i+8 <= len(s); i++ {
		if (s[i] == 'c' || s[i] == 'C') && hasFold([]byte(s[i:i+8]), 0, "cygdrive") {
			return true
		}
	}
	return false
}

// maxBashNesting bounds how deep the syntax tree of a command may be before it is
// parsed: the parser and the tree walk recurse once per level, and a deep recursion
// costs far more than its length (Go grows the stack by copying it). No command a
// person types comes near it.
const maxBashNesting = 512

// bashNesting counts what can add a level to a command's syntax tree: ( { [ and a
// backtick, && || | and !, the compound commands' keywords, and inside arithmetic
// (when the command has a (( ) every operator character. It stops counting past
// maxBashNesting. One pass; the count bounds the depth from above.
func bashNesting(s string) int {
	arith := strings.Contains(s, "((")
	n := 0
	for i := 0; i < len(s) && n <= maxBashNesting; i++ {
		switch c := s[i]; {
		case strings.IndexByte("({[`|!", c) >= 0:
			n++
		case c == '&' && i+1 < len(s) && s[i+1] == '&':
			n++
			i++
		case arith && strings.IndexByte("+-*/%<>=&^,?:~", c) >= 0:
			n++
		case isLetter(c) && (i == 0 || !isWord(lc(s[i-1]))):
			j := i
			for j < len(s) && isWord(lc(s[j])) {
				j++
			}
			switch s[i:j] {
			case "if", "case", "while", "until", "for", "select", "function", "coproc", "time":
				n++
			}
			i = j - 1
		}
	}
	return n
}

// bashView returns the bash reading of s: the words of each simple command, separated
// by spaces, each command ended by ";\n". It returns nil, false when s does not parse
// as bash (PowerShell's syntax often does not), and the part read so far with false
// when a limit cut the reading short.
func bashView(s string) ([]byte, bool) {
	if bashNesting(s) > maxBashNesting {
		return []byte{}, false // not read: asked, unless another view forbids it
	}
	r := bashReader{left: bashLimit(len(s)), out: make([]byte, 0, len(s)+16), scratch: make([]byte, 0, 64)}
	if !r.parse(s, 0) {
		return nil, false
	}
	for i := 0; i < len(r.queue) && !r.cut; i++ {
		q := r.queue[i]
		r.parse(q.script, q.depth)
	}
	return r.out, !r.cut
}

type bashReader struct {
	src     string // the script being walked; node offsets index it
	out     []byte
	scratch []byte // reused by every expansion: fields are copied out of it
	left    int    // bytes the reading may still produce
	cut     bool
	queue   []nested
	depth   int
	globs   int // command names with a glob, matched so far
}

// maxGlobCommands bounds the command names with a glob matched against the forbidden
// names (each costs a match per name); past it the reading is cut short.
const maxGlobCommands = 64

type nested struct {
	script string
	depth  int
}

// bashParsers keeps parsers for reuse (a parser is a few KiB): the server classifies
// many commands in one process. A zero Pool: nothing is made at process start.
var bashParsers sync.Pool

func (r *bashReader) parse(s string, depth int) bool {
	if depth > 0 && bashNesting(s) > maxBashNesting {
		r.cut = true
		return false
	}
	p, _ := bashParsers.Get().(*syntax.Parser)
	if p == nil {
		p = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	// Parse resets the parser; the tree it returns shares nothing with it, so the
	// parser can go back before the tree is walked.
	f, err := p.Parse(strings.NewReader(s), "")
	bashParsers.Put(p)
	if err != nil {
		return false
	}
	r.src, r.depth = s, depth
	var stack []syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if r.cut {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok {
				r.call(call, n.Redirs)
			}
		case *syntax.Word:
			r.free(n, stack)
		}
		stack = append(stack, n)
		return true
	})
	return true
}

// call writes one simple command and queues the scripts it hands to a shell.
func (r *bashReader) call(c *syntax.CallExpr, redirs []*syntax.Redirect) {
	var line []string
	for _, a := range c.Assigns {
		line = append(line, r.assign(a))
	}
	fields := make([]string, 0, len(c.Args))
	for i, w := range c.Args {
		n := len(fields)
		var glob bool
		fields, glob = r.expand(w, true, fields)
		if i == 0 && glob {
			for k := n; k < len(fields); k++ {
				if r.globs++; r.globs > maxGlobCommands {
					r.cut = true
					break
				}
				fields[k] = globCommand(fields[k])
			}
		}
	}
	r.emit(append(line, fields...))
	if r.cut || r.depth+1 > maxBashDepth || len(fields) == 0 {
		return
	}
	if strings.EqualFold(fields[0], "eval") {
		r.push(strings.Join(fields[1:], " "))
		return
	}
	sh := -1
	for i, f := range fields {
		if isShellName(f) {
			sh = i
			break
		}
	}
	if sh < 0 {
		return
	}
	for j := sh + 1; j+1 < len(fields); j++ {
		if o := fields[j]; len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.IndexByte(o, 'c') > 0 {
			r.push(fields[j+1])
			break
		}
	}
	for _, rd := range redirs {
		switch {
		case rd.Op == syntax.WordHdoc && rd.Word != nil:
			r.push(strings.Join(r.fields(rd.Word, false), " "))
		case (rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc) && rd.Hdoc != nil:
			r.push(r.heredoc(rd))
		}
	}
}

// free writes a word that is not an argument of a simple command (a for loop's list,
// a redirection's target, a here-document, a test's operand) as a line of its own.
func (r *bashReader) free(w *syntax.Word, stack []syntax.Node) {
	var parent, grand syntax.Node
	if len(stack) > 0 {
		parent = stack[len(stack)-1]
	}
	if len(stack) > 1 {
		grand = stack[len(stack)-2]
	}
	switch p := parent.(type) {
	case *syntax.CallExpr, *syntax.ParamExp:
		return // written by call, or read as part of its word
	case *syntax.Assign:
		if _, ok := grand.(*syntax.CallExpr); ok {
			return
		}
		r.emit(r.fields(w, false))
	case *syntax.Redirect:
		if p.Hdoc == w {
			r.emit([]string{r.heredoc(p)})
			return
		}
		r.emit(r.fields(w, true))
	default:
		r.emit(r.fields(w, true))
	}
}

func (r *bashReader) push(script string) {
	if r.left -= len(script); r.left < 0 {
		r.cut = true
		return
	}
	r.queue = append(r.queue, nested{script, r.depth + 1})
}

// emit writes words as one line, as far as the reading's limit allows (keeping room
// for the line's end).
func (r *bashReader) emit(words []string) {
	if r.left < 2 {
		r.cut = true
		return
	}
	for i, w := range words {
		n := len(w)
		if i > 0 {
			n++
		}
		if n+2 > r.left {
			r.cut = true
			break
		}
		if i > 0 {
			r.out = append(r.out, ' ')
		}
		r.out = append(r.out, w...)
		r.left -= n
	}
	r.out = append(r.out, ';', '\n')
	r.left -= 2
}

// assign reads name=value (no brace expansion in an assignment); anything else
// (arrays, indices) stays as its source text.
func (r *bashReader) assign(a *syntax.Assign) string {
	if a.Name == nil || a.Index != nil || a.Array != nil {
		return r.source(a)
	}
	op := "="
	if a.Append {
		op = "+="
	}
	if a.Value == nil {
		return a.Name.Value + op
	}
	return a.Name.Value + op + strings.Join(r.fields(a.Value, false), " ")
}

// heredoc reads a here-document's body: literal when its delimiter is quoted, else
// with the backslash escapes of double quotes.
func (r *bashReader) heredoc(rd *syntax.Redirect) string {
	quoted := false
	for _, p := range rd.Word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			quoted = quoted || strings.IndexByte(p.Value, '\\') >= 0
		default:
			quoted = true
		}
	}
	e := r.newExpansion(rd.Hdoc)
	var buf []byte
	for _, p := range rd.Hdoc.Parts {
		if l, ok := p.(*syntax.Lit); ok && quoted {
			buf = append(buf, l.Value...)
			continue
		}
		buf = e.part(buf, p, true)
	}
	return string(buf)
}

// source is the text of node n in the script being walked.
func (r *bashReader) source(n syntax.Node) string {
	i, j := n.Pos().Offset(), n.End().Offset()
	if !n.Pos().IsValid() || !n.End().IsValid() || i > j || j > uint(len(r.src)) {
		return ""
	}
	return r.src[i:j]
}

// expansion is one word being expanded.
type expansion struct {
	r      *bashReader
	left   int // work left (wordLimit)
	fields []string
	glob   bool // an unquoted * ? or [ (bash would match it against files)
	cut    bool
}

func (r *bashReader) newExpansion(w *syntax.Word) expansion {
	n := 0
	if w.Pos().IsValid() && w.End().IsValid() && w.End().Offset() >= w.Pos().Offset() {
		n = int(w.End().Offset() - w.Pos().Offset())
	}
	return expansion{r: r, left: min(wordLimit(n), r.left)}
}

// expand appends to fields the fields bash makes of w: with braces (brace
// expansion), or without (an assignment's value, a here-string). It also reports
// whether w has an unquoted glob character.
func (r *bashReader) expand(w *syntax.Word, braces bool, fields []string) ([]string, bool) {
	e := r.newExpansion(w)
	e.fields = fields
	if braces {
		// SplitBraces replaces *w; the walk must keep seeing the parsed word (it
		// does not know brace nodes), so a copy is split.
		cp := *w
		if syntax.SplitBraces(&cp) {
			w = &cp
		}
	}
	e.gen(r.scratch[:0], &cont{parts: w.Parts})
	if e.cut {
		r.cut = true
	}
	return e.fields, e.glob
}

func (r *bashReader) fields(w *syntax.Word, braces bool) []string {
	f, _ := r.expand(w, braces, nil)
	return f
}

// cont is what remains of a word after a brace group: parts, then next.
type cont struct {
	parts []syntax.WordPart
	next  *cont
}

// gen appends the rest of the word (c) to buf once per alternative of each brace
// group, in bash's order, and adds each result as a field.
func (e *expansion) gen(buf []byte, c *cont) bool {
	for ; c != nil; c = c.next {
		for i, p := range c.parts {
			if e.left--; e.left < 0 {
				e.cut = true
				return false
			}
			b, ok := p.(*syntax.BraceExp)
			if !ok {
				n := len(buf)
				buf = e.part(buf, p, false)
				if e.left -= len(buf) - n; e.left < 0 {
					e.cut = true
					return false
				}
				continue
			}
			rest := &cont{c.parts[i+1:], c.next}
			if b.Sequence {
				return e.sequence(buf, b, rest)
			}
			for _, el := range b.Elems {
				if !e.gen(buf, &cont{el.Parts, rest}) {
					return false
				}
			}
			return true
		}
	}
	if e.left -= len(buf) + 1; e.left < 0 {
		e.cut = true
		return false
	}
	e.fields = append(e.fields, string(buf))
	return true
}

// sequence expands {x..y[..step]} over integers (zero-padded when either end is) or
// single ASCII characters (SplitBraces leaves any other form literal); ends beyond
// 10^15 stay literal here, which keeps the arithmetic from overflowing.
func (e *expansion) sequence(buf []byte, b *syntax.BraceExp, rest *cont) bool {
	from, to, step := b.Elems[0].Lit(), b.Elems[1].Lit(), int64(1)
	literal := func() bool {
		buf = append(append(append(append(buf, '{'), from...), ".."...), to...)
		if len(b.Elems) > 2 {
			buf = append(append(buf, ".."...), b.Elems[2].Lit()...)
		}
		return e.gen(append(buf, '}'), rest)
	}
	if len(b.Elems) > 2 {
		s, err := strconv.ParseInt(b.Elems[2].Lit(), 10, 64)
		if err != nil || s < -1e15 || s > 1e15 {
			return literal()
		}
		step = max(s, -s, 1)
	}
	x, err1 := strconv.ParseInt(from, 10, 64)
	y, err2 := strconv.ParseInt(to, 10, 64)
	if err1 == nil && err2 == nil && x > -1e15 && x < 1e15 && y > -1e15 && y < 1e15 {
		width := 0
		if padded(from) || padded(to) {
			width = max(len(from), len(to))
		}
		dir := int64(1)
		if y < x {
			dir = -1
		}
		for v := x; dir*(y-v) >= 0; v += dir * step {
			if !e.gen(appendPadded(buf, v, width), rest) {
				return false
			}
		}
		return true
	}
	if len(from) == 1 && len(to) == 1 && from[0] < 0x80 && to[0] < 0x80 {
		x, y := int64(from[0]), int64(to[0])
		dir := int64(1)
		if y < x {
			dir = -1
		}
		for v := x; dir*(y-v) >= 0; v += dir * step {
			if !e.gen(append(buf, byte(v)), rest) { //nolint:gosec // G115: v stays between two ASCII bytes
				return false
			}
		}
		return true
	}
	return literal()
}

func padded(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

func appendPadded(buf []byte, v int64, width int) []byte {
	d := strconv.AppendInt(nil, max(v, -v), 10)
	if v < 0 {
		buf = append(buf, '-')
		width--
	}
	for n := len(d); n < width; n++ {
		buf = append(buf, '0')
	}
	return append(buf, d...)
}

// part appends the value of one piece of a word; quoted is true inside "…".
func (e *expansion) part(buf []byte, p syntax.WordPart, quoted bool) []byte {
	switch p := p.(type) {
	case *syntax.Lit:
		if quoted {
			return dqUnescape(buf, p.Value)
		}
		if hasGlob(p.Value) {
			e.glob = true
		}
		return unquotedUnescape(buf, p.Value)
	case *syntax.SglQuoted:
		if p.Dollar {
			return ansiCBash(buf, p.Value)
		}
		return append(buf, p.Value...)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			buf = e.part(buf, q, true)
		}
		return buf
	case *syntax.ParamExp:
		if x := p.Exp; x != nil && x.Word != nil && p.Param != nil && !p.Excl && !p.Length && p.Index == nil {
			switch x.Op {
			case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
				// The value of an unset name: the word.
				for _, q := range x.Word.Parts {
					buf = e.part(buf, q, quoted)
				}
				return buf
			}
		}
	}
	// Parameters, substitutions, arithmetic, extended globs: their source text.
	return append(buf, e.r.source(p)...)
}

// unquotedUnescape: outside quotes a backslash makes the next character literal.
func unquotedUnescape(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		buf = append(buf, s[i])
	}
	return buf
}

// dqUnescape: inside "…" (and an unquoted here-document) a backslash escapes only
// $ ` " \ and a newline.
func dqUnescape(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		buf = append(buf, s[i])
	}
	return buf
}

// hasGlob reports an unescaped * ? or [ in an unquoted piece of a word.
func hasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// ansiCBash decodes the body of $'…' as bash does: \a \b \e \E \f \n \r \t \v, \\ \'
// \" \?, \nnn (octal), \xHH, \uHHHH, \UHHHHHHHH, \cX (control-X); any other escape
// keeps its backslash.
func ansiCBash(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			buf = append(buf, s[i])
			continue
		}
		i++
		c := s[i]
		switch c {
		case 'a':
			buf = append(buf, 7)
		case 'b':
			buf = append(buf, 8)
		case 'e', 'E':
			buf = append(buf, 0x1b)
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'v':
			buf = append(buf, '\v')
		case '\\', '\'', '"', '?':
			buf = append(buf, c)
		case 'x', 'u', 'U':
			n := 2
			switch c {
			case 'u':
				n = 4
			case 'U':
				n = 8
			}
			v, k := hexPrefix(s[i+1:], n)
			switch {
			case k == 0:
				buf = append(buf, '\\', c)
			case c == 'x':
				buf = append(buf, byte(v)) //nolint:gosec // G115: at most two hex digits
			default:
				buf = appendRune(buf, v)
			}
			i += k
		case 'c':
			if i+1 < len(s) {
				i++
				buf = append(buf, s[i]&0x1f)
			} else {
				buf = append(buf, '\\', c)
			}
		default:
			if '0' <= c && c <= '7' {
				v, k := 0, 0
				for k < 3 && i+k < len(s) && '0' <= s[i+k] && s[i+k] <= '7' {
					v = v<<3 | int(s[i+k]-'0')
					k++
				}
				buf = append(buf, byte(v)) //nolint:gosec // G115: bash keeps the low byte too
				i += k - 1
				continue
			}
			buf = append(buf, '\\', c)
		}
	}
	return buf
}

func appendRune(buf []byte, v uint32) []byte {
	if v > 0x10FFFF {
		v = 0xFFFD
	}
	return append(buf, string(rune(v))...)
}

// isShellName: the programs that run their -c argument or their standard input as a
// bash-like script (a path and .exe allowed).
func isShellName(f string) bool {
	if k := strings.LastIndexAny(f, `/\`); k >= 0 {
		f = f[k+1:]
	}
	f = strings.ToLower(f)
	f = strings.TrimSuffix(f, ".exe")
	switch f {
	case "bash", "sh", "dash", "zsh", "ksh", "mksh", "ash":
		return true
	}
	return false
}

// globCommand: a command name with a glob in its last component runs whichever file
// the glob matches. If it can match a name the forbidden rules know (with .exe or
// .com, as Windows runs them), the component reads as every such name.
func globCommand(f string) string {
	dir, base := "", f
	if k := strings.LastIndexByte(f, '/'); k >= 0 {
		dir, base = f[:k+1], f[k+1:]
	}
	if !strings.ContainsAny(base, "*?[") {
		return f
	}
	var names []string
	p := []byte(base)
	for _, ws := range forbiddenWords {
		for _, w := range ws {
			for _, ext := range [...]string{"", ".exe", ".com"} {
				if globMatch(p, w.s+ext) {
					names = append(names, w.s+ext)
				}
			}
		}
	}
	if len(names) == 0 {
		return f
	}
	return dir + strings.Join(names, " ")
}
