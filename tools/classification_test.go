package tools_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools"
)

// shell is a stand-in shell classifier: "boom" anywhere is forbidden, "ls" alone is
// read-only, anything else approval-required.
func shell(cmd string) tools.Class {
	switch {
	case strings.Contains(cmd, "boom"):
		return tools.Forbidden
	case cmd == "ls":
		return tools.ReadOnly
	}
	return tools.ApprovalRequired
}

func TestWith(t *testing.T) {
	t.Parallel()
	command := tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
		{When: tools.WhenTrue("execute"), Class: tools.ApprovalRequired, Command: "command"}}}
	catalog := tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
		{When: tools.WhenTrue("execute"), Catalog: &tools.CatalogRef{ID: "capability", Extra: "extra_args"}}}}
	classes := map[string]tools.Class{"look": tools.ReadOnly, "rm": tools.Reversible}
	o := tools.Oracles{Shell: shell,
		Catalog:     func(id string) (tools.Class, bool) { c, ok := classes[id]; return c, ok },
		CatalogArgv: func(id string) ([][]string, bool) { return [][]string{{id, "-x"}}, id == "rm" }}
	for _, c := range []struct {
		name string
		cl   tools.Classification
		args tools.Args
		o    tools.Oracles
		want tools.Class
	}{
		{"plan", command, tools.Args{"command": "boom"}, o, tools.ReadOnly},
		{"harmless command", command, tools.Args{"command": "ls", "execute": true}, o, tools.ApprovalRequired},
		{"forbidden command", command, tools.Args{"command": "boom", "execute": true}, o, tools.Forbidden},
		{"command not a string", command, tools.Args{"command": 7, "execute": true}, o, tools.ApprovalRequired},
		{"no shell", command, tools.Args{"command": "boom", "execute": true}, tools.Oracles{}, tools.ApprovalRequired},
		{"catalog class", catalog, tools.Args{"capability": "look", "execute": true}, o, tools.ReadOnly},
		{"extra", catalog, tools.Args{"capability": "look", "execute": true, "extra_args": []any{"x"}}, o, tools.ApprovalRequired},
		{"forbidden extra", catalog, tools.Args{"capability": "look", "execute": true, "extra_args": []any{"boom"}}, o, tools.Forbidden},
		{"forbidden extra, unknown id", catalog, tools.Args{"capability": "nope", "execute": true, "extra_args": []string{"boom"}}, o, tools.Forbidden},
		{"extra not strings", catalog, tools.Args{"capability": "look", "execute": true, "extra_args": []any{"boom", 1}}, o, tools.ApprovalRequired},
		{"extra without shell", catalog, tools.Args{"capability": "look", "execute": true, "extra_args": []any{"boom"}}, tools.Oracles{Catalog: o.Catalog}, tools.ApprovalRequired},
	} {
		if got := c.cl.With(c.args, c.o); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if got := catalog.Of(tools.Args{"capability": "look", "execute": true, "extra_args": []any{"boom"}}, o.Catalog); got != tools.ApprovalRequired {
		t.Errorf("Of, which has no shell classifier: %s, want approval-required", got)
	}
	// The argv the shell sees: the extra arguments alone and after each catalog argv.
	var seen []string
	o.Shell = func(cmd string) tools.Class { seen = append(seen, cmd); return tools.ReadOnly }
	catalog.With(tools.Args{"capability": "rm", "execute": true, "extra_args": []any{"a b", "c"}}, o)
	if diff := cmp.Diff([]string{`"a b" c`, `rm -x "a b" c`}, seen); diff != "" {
		t.Errorf("command lines (-want +got):\n%s", diff)
	}
	if command.Max() != tools.Forbidden || catalog.Max() != tools.Forbidden {
		t.Error("a rule the shell or the catalog answers can reach forbidden")
	}
}

// parseCommandLine splits a command line as the MS C runtime does for every argument
// but the first (which this test quotes the same way): the inverse CommandLine must have.
func parseCommandLine(s string) []string {
	var out []string
	var cur strings.Builder
	inArg, quoted := false, false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			n := 0
			for i < len(s) && s[i] == '\\' {
				n++
				i++
			}
			if i < len(s) && s[i] == '"' {
				cur.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					cur.WriteByte('"')
					i++
				}
			} else {
				cur.WriteString(strings.Repeat(`\`, n))
			}
			inArg = true
			continue
		case c == '"':
			quoted = !quoted
			inArg = true
		case (c == ' ' || c == '\t') && !quoted:
			if inArg {
				out = append(out, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteByte(c)
			inArg = true
		}
		i++
	}
	if inArg {
		out = append(out, cur.String())
	}
	return out
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"cmd", "/c", "format", "D:"}, `cmd /c format D:`},
		{[]string{"pwsh", "-Command", "Format-Volume -DriveLetter D"}, `pwsh -Command "Format-Volume -DriveLetter D"`},
		{[]string{"a", "", `b"c`, `d\`, `e f\`, `g\"h`}, `a "" "b\"c" d\ "e f\\" "g\\\"h"`},
	} {
		got := tools.CommandLine(c.argv)
		if got != c.want {
			t.Errorf("CommandLine(%q) = %s, want %s", c.argv, got, c.want)
		}
		if back := parseCommandLine(got); !slices.Equal(back, c.argv) {
			t.Errorf("%s parses back as %q", got, back)
		}
	}
}

// FuzzCommandLine: whatever the arguments, the command line parses back into them.
func FuzzCommandLine(f *testing.F) {
	f.Add("cmd\x00/c\x00format D:")
	f.Add("a\x00\x00b\"c\x00d\\\x00e f\\\x00g\\\"h")
	f.Add("\\\\\"\x00 \t\x00\n")
	f.Fuzz(func(t *testing.T, joined string) {
		argv := strings.Split(joined, "\x00")
		line := tools.CommandLine(argv)
		if back := parseCommandLine(line); !slices.Equal(back, argv) {
			t.Fatalf("%q renders as %s, which parses back as %q", argv, line, back)
		}
	})
}

// TestProjectTaskIDsNeverFromCatalog (issue 23 §1): an id naming a project's own task
// (<source>:<name>) is at least approval-required whatever a catalog says of that id,
// since what runs is the repository's definition, which neither the hooks nor the
// pipeline's declaration read; extra arguments are still read by the shell classifier.
func TestProjectTaskIDsNeverFromCatalog(t *testing.T) {
	t.Parallel()
	catalog := tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
		{When: tools.WhenTrue("execute"), Catalog: &tools.CatalogRef{ID: "capability", Extra: "extra_args"}}}}
	// A catalog that calls everything read-only, as a replacement catalog naming a
	// project task's id could.
	o := tools.Oracles{Shell: shell,
		Catalog:     func(string) (tools.Class, bool) { return tools.ReadOnly, true },
		CatalogArgv: func(id string) ([][]string, bool) { return [][]string{{"boom"}}, true }}
	for _, c := range []struct {
		args tools.Args
		want tools.Class
	}{
		{tools.Args{"capability": "npm:lint", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "vscode:Build Release", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "make:test", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "just:fmt", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "task:lint", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "npm:lint"}, tools.ReadOnly}, // a plan
		// The catalog's argv is not the task's: extra arguments are read on their own.
		{tools.Args{"capability": "npm:lint", "execute": true, "extra_args": []any{"ls"}}, tools.ApprovalRequired},
		{tools.Args{"capability": "npm:lint", "execute": true, "extra_args": []any{"boom"}}, tools.Forbidden},
		// Not a project task's id: the catalog decides.
		{tools.Args{"capability": "lint-npm", "execute": true}, tools.ReadOnly},
		{tools.Args{"capability": "npm:", "execute": true}, tools.ReadOnly},
		{tools.Args{"capability": "NPM:lint", "execute": true}, tools.ReadOnly},
		{tools.Args{"capability": "cargo:build", "execute": true}, tools.ReadOnly},
	} {
		if got := catalog.With(c.args, o); got != c.want {
			t.Errorf("%v: %s, want %s", c.args, got, c.want)
		}
	}
}
