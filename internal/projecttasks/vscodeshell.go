package projecttasks

import (
	"slices"
	"strings"
)

// How a VS Code shell task becomes an argv (docs/project-tasks.md, "Shell tasks"). The
// rules below restate VS Code's task runner as its documentation and behaviour
// describe it; they are written here so the command line planned is the one VS Code
// would give the same shell.

// defaultShell is the shell a task without options.shell runs in: VS Code runs tasks
// in the default terminal profile, which is PowerShell on Windows and $SHELL
// elsewhere. Windows PowerShell is the one every Windows has; -NoProfile keeps the
// user's profile script out of an agent's runs. Elsewhere sh stands for $SHELL, which
// a reader of files cannot know.
func defaultShell(goos string) []string {
	if goos == "windows" {
		return []string{"powershell", "-NoProfile", "-Command"}
	}
	return []string{"sh", "-c"}
}

// shell picks the executable and the arguments before the command line.
func (v *vscode) shell(s *vsShell, sub *substituter) (exe string, args []string, bad string) {
	switch {
	case s != nil && s.quoting:
		return "", nil, "options.shell.quoting (a custom quoting) is not read"
	case s != nil && s.exe != nil:
		exe = sub.do(*s.exe)
		if strings.TrimSpace(exe) == "" {
			return "", nil, "options.shell.executable is empty"
		}
		// With an executable of its own, VS Code adds no argument of its own: the task's
		// args (or none) then the command line.
		for _, a := range s.args {
			args = append(args, sub.do(a))
		}
		return exe, args, ""
	case s != nil && s.hasArgs:
		return "", nil, "options.shell.args without an executable extend the user's terminal profile, which is not known"
	}
	def := v.b.in.shell
	if len(def) == 0 || strings.TrimSpace(def[0]) == "" {
		def = defaultShell(v.b.in.goos)
	}
	return def[0], slices.Clone(def[1:]), ""
}

// shellBase is an executable's base name without extension, lower case: what VS Code
// compares to pick the quoting and the Windows special cases.
func shellBase(exe string) string {
	base := exe[strings.LastIndexAny(exe, `/\`)+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return strings.ToLower(base)
}

// shellFamily is the quoting family of a shell's base name: itself if VS Code knows
// it (cmd, powershell, bash, zsh), else the OS's default (powershell on Windows, bash
// elsewhere).
func shellFamily(goos, base string) string {
	switch base {
	case "cmd", "powershell", "bash", "zsh":
		return base
	}
	if goos == "windows" {
		return "powershell"
	}
	return "bash"
}

// quoteChars are one family's quoting characters; an empty one is not supported.
type quoteChars struct {
	escape   byte
	escaped  string // the characters escaping prefixes with escape
	strong   byte
	weak     byte
	noEscape bool
}

func quotesOf(family string) quoteChars {
	switch family {
	case "cmd":
		return quoteChars{strong: '"', noEscape: true}
	case "powershell":
		// VS Code builds its character class by joining the characters with commas,
		// so a comma is escaped too.
		return quoteChars{escape: '`', escaped: " \"'(),", strong: '\'', weak: '"'}
	}
	return quoteChars{escape: '\\', escaped: " \"',", strong: '\'', weak: '"'}
}

// needsQuotes reports a value holding a space outside quotes (a value already wholly
// quoted does not).
func (q quoteChars) needsQuotes(v string) bool {
	if len(v) >= 2 && (v[0] == q.strong || (q.weak != 0 && v[0] == q.weak)) && v[len(v)-1] == v[0] {
		return false
	}
	var in byte
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case in != 0:
			if c == in {
				in = 0
			}
		case !q.noEscape && c == q.escape:
			i++
		case c == q.strong || (q.weak != 0 && c == q.weak):
			in = c
		case c == ' ':
			return true
		}
	}
	return false
}

// quote applies a quoting style; false when the family has no such style.
func (q quoteChars) quote(v, style string) (string, bool) {
	switch {
	case style == "strong":
		return string(q.strong) + v + string(q.strong), true
	case style == "weak" && q.weak != 0:
		return string(q.weak) + v + string(q.weak), true
	case style == "escape" && !q.noEscape:
		var out strings.Builder
		for i := 0; i < len(v); i++ {
			if strings.IndexByte(q.escaped, v[i]) >= 0 {
				out.WriteByte(q.escape)
			}
			out.WriteByte(v[i])
		}
		return out.String(), true
	}
	return v, false
}

func (q quoteChars) ifNeeded(c cmdString) (string, bool) {
	if c.quoting == "" {
		if q.needsQuotes(c.value) {
			return q.quote(c.value, "strong")
		}
		return c.value, false
	}
	return q.quote(c.value, c.quoting)
}

// commandLine builds the line the shell runs from the command and its arguments.
// A lone command string is passed as written (quoted only when substitution gave it a
// space it did not have). Otherwise each part is quoted as needed and joined by
// spaces; on Windows, cmd wraps the line in quotes when both command and an argument
// were quoted, and PowerShell calls a quoted command with &.
func commandLine(goos, exe string, cmd cmdString, original string, args []cmdString) string {
	base := shellBase(exe)
	q := quotesOf(shellFamily(goos, base))
	if len(args) == 0 && cmd.quoting == "" && (cmd.value == original || q.needsQuotes(original)) {
		return cmd.value
	}
	parts := make([]string, 0, 1+len(args))
	first, cmdQuoted := q.ifNeeded(cmd)
	parts = append(parts, first)
	argQuoted := false
	for _, a := range args {
		s, quoted := q.ifNeeded(a)
		parts = append(parts, s)
		argQuoted = argQuoted || quoted
	}
	line := strings.Join(parts, " ")
	if goos == "windows" {
		switch {
		case base == "cmd" && cmdQuoted && argQuoted:
			line = `"` + line + `"`
		case (base == "powershell" || base == "pwsh") && cmdQuoted:
			line = "& " + line
		}
	}
	return line
}
