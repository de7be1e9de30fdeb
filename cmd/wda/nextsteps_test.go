package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools/workflowplan"
)

// sampleArgs is a call of tc's tool that sets every argument the command can carry:
// each flag's property with a value of its type, the positional argument, the
// arguments after --, and what the command always sends.
func sampleArgs(t *testing.T, tc *toolCommand) map[string]any {
	t.Helper()
	tool := lookupTool(tc.tool)
	args := map[string]any{}
	value := func(s *schema.Schema) any {
		switch {
		case len(s.Enum) > 0:
			return s.Enum[len(s.Enum)-1]
		case s.Type == "boolean":
			return true
		case s.Type == "integer":
			if n, ok := schemaBound(s.Minimum); ok {
				return n + 1
			}
			return 7
		case s.Type == "array":
			return []any{"first item", "-second"}
		}
		return "a value with spaces"
	}
	in := schema.In(tool)
	if tc.positional != "" {
		args[tc.positional] = "positional words"
	}
	if tc.rest != "" {
		args[tc.rest] = []any{"-run", "Test X", "--", "y"}
	}
	for _, f := range tc.flags(tool) {
		s, _ := in.Properties.Get(f.prop)
		args[f.prop] = value(s)
	}
	for k, v := range tc.fixed {
		args[k] = v
	}
	return args
}

// TestNextCommandRoundTrip: for every command, a call that sets every argument the
// command can carry is said as a command line that parses back to exactly that call.
// So every tool (each has a command: TestFlagsCoverSchemas) has a translation, and a
// translation never loses or changes an argument.
func TestNextCommandRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range toolCommands {
		args := sampleArgs(t, tc)
		argv, err := nextCommand(tc.tool, args, nil, stepContext{})
		if err != nil {
			t.Errorf("wda %s: %v", tc.name, err)
			continue
		}
		if argv[0] != "wda" || argv[1] != tc.name {
			t.Errorf("%s %v: said as %q, want wda %s", tc.tool, args, argv, tc.name)
			continue
		}
		p, err := tc.parse(argv[2:])
		if err != nil {
			t.Errorf("%s: %v does not parse: %v", tc.name, argv, err)
			continue
		}
		if d := cmp.Diff(args, p.args); d != "" {
			t.Errorf("%s: %s parses to other arguments (-call +parsed):\n%s", tc.name, commandText(argv), d)
		}
	}
}

// TestNextCommandCases: the steps the tools suggest, as the person reads them.
func TestNextCommandCases(t *testing.T) {
	t.Parallel()
	sc := stepContext{project: "/p"}
	cases := []struct {
		tool    string
		args    map[string]any
		missing []string
		sc      stepContext
		want    string
	}{
		{"capability_run", map[string]any{"capability": "test-go", "cwd": "/p"}, nil, sc, "wda run test-go"},
		{"capability_run", map[string]any{"capability": "test-go", "cwd": "/p/sub"}, nil, sc, "wda run test-go --cwd /p/sub"},
		{"capability_run", map[string]any{"capability": "test-go"}, nil, stepContext{project: "/p", session: sessionFlags{project: "../p"}},
			"wda run test-go --project ../p"},
		{"package_search", map[string]any{"query": "ripgrep"}, nil, sc, "wda search ripgrep"},
		{"package_search", map[string]any{"query": "visual studio code", "source": "scoop"}, nil, sc, `wda search "visual studio code" --source scoop`},
		{"package_search", map[string]any{"installed": true, "upgrades": true}, nil, sc, "wda list --upgrades"},
		{"package_search", map[string]any{"installed": true, "query": "Git.Git", "source": "winget"}, nil, sc, "wda list Git.Git --source winget"},
		{"package_install", map[string]any{"package_id": "Git.Git", "action": "upgrade"}, nil, sc, "wda upgrade Git.Git"},
		{"package_install", map[string]any{"package_id": "Git.Git"}, nil, sc, "wda install Git.Git"},
		{"env_inspect", map[string]any{"force_refresh": true}, nil, sc, "wda env --refresh"},
		{"tool_discover", map[string]any{"category": "runtimes"}, nil, sc, "wda discover --category runtimes"},
		{"logs_query", map[string]any{"filter": "failures", "last_n": float64(20)}, nil, sc, "wda logs --filter failures --last 20"},
		{"sandbox_run", map[string]any{"isolation_requirement": "linux_compatibility", "workspace_folder": "/p"}, []string{"command"}, sc,
			"wda sandbox COMMAND --isolation linux_compatibility"},
		{"mcp_audit", map[string]any{"include_host": true, "cwd": "/p"}, nil, sc, "wda audit-mcp --include-host"},
		{"ecosystem_scan", map[string]any{"include_host": true}, nil, sc, "wda scan --include-host"},
		{"workflow_plan", map[string]any{"task": "run the tests"}, nil, sc, `wda plan "run the tests"`},
	}
	for _, c := range cases {
		argv, err := nextCommand(c.tool, c.args, c.missing, c.sc)
		if err != nil {
			t.Errorf("%s %v: %v", c.tool, c.args, err)
			continue
		}
		if got := commandText(argv); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.tool, c.args, got, c.want)
		}
	}
	for _, bad := range []struct {
		tool string
		args map[string]any
	}{
		{"no_such_tool", nil},
		{"capability_run", map[string]any{"capability": "test-go", "no_such_argument": "x"}},
		{"capability_run", map[string]any{"capability": 7}},
		{"package_search", map[string]any{"installed": true, "query": "x", "upgrades": map[string]any{}}},
	} {
		if argv, err := nextCommand(bad.tool, bad.args, nil, sc); err == nil {
			t.Errorf("%s %v: said as %v, want an error", bad.tool, bad.args, argv)
		}
	}
}

// nextToolNames are the tools workflow_plan can name as next_tool: the enum of the
// name field of its output's next_tool, read from the struct tags the output schema is
// built from.
func nextToolNames(t *testing.T) []string {
	t.Helper()
	var found []string
	seen := map[reflect.Type]bool{}
	var walk func(rt reflect.Type, inNext bool)
	walk = func(rt reflect.Type, inNext bool) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] {
			return
		}
		seen[rt] = true
		for i := range rt.NumField() {
			f := rt.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if inNext && name == "name" {
				for _, part := range strings.Split(f.Tag.Get("jsonschema"), ",") {
					if v, ok := strings.CutPrefix(part, "enum="); ok {
						found = append(found, v)
					}
				}
			}
			walk(f.Type, name == "next_tool" || (inNext && f.Anonymous))
		}
	}
	walk(reflect.TypeFor[workflowplan.Out](), false)
	if len(found) == 0 {
		t.Fatal("workflow_plan's output has no next_tool name enum: this test must learn where the suggested tools are now")
	}
	return found
}

// TestEveryToolHasACommand: every tool of the registry and every tool workflow_plan
// can suggest as next_tool has a command to say its calls with.
func TestEveryToolHasACommand(t *testing.T) {
	t.Parallel()
	names := slices.Concat(toolNames(), nextToolNames(t))
	for _, n := range names {
		pick, ok := commandOf[n]
		if !ok {
			t.Errorf("%s has no entry in commandOf: a next step naming it could not be said as a wda command", n)
			continue
		}
		if tc := findToolCommand(pick(map[string]any{})); tc == nil || tc.tool != n {
			t.Errorf("commandOf[%s] names wda %s, which does not call it", n, pick(map[string]any{}))
		}
	}
	for n := range commandOf {
		if lookupTool(n) == nil {
			t.Errorf("commandOf names %s, which is no tool", n)
		}
	}
}

// TestVerifyHintsSayCommands: the hint of every package_install action, as the tool
// writes it, is said with wda commands, and names no tool.
func TestVerifyHintsSayCommands(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, action := range []string{"install", "upgrade", "uninstall"} {
		r := f.run(t, noTTY, nil, "call", "package_install", `{"package_id":"Git.Git","action":"`+action+`"}`)
		var out map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("%s: %v\n%s%s", action, err, r.stdout, r.stderr)
		}
		hint, _ := out["verify"].(string)
		if _, ok := verifySteps[hint]; !ok {
			t.Errorf("%s: the verify hint %q is not in verifySteps", action, hint)
			continue
		}
		text := verifyText(out, stepContext{project: f.project})
		if !strings.Contains(text, "Next: wda ") {
			t.Errorf("%s: %q gives no command", action, text)
		}
		for _, name := range toolNames() {
			if strings.Contains(text, name) {
				t.Errorf("%s: %q names the tool %s", action, text, name)
			}
		}
	}
}

// TestNextStepsAreCommands: what the human views suggest next is a wda command line,
// never a tool call written for an MCP client (issue 25 §2: "Call package_search with
// search_arguments", "Next: env_inspect with force_refresh:true", a missing tool or
// package manager with no hint at all).
func TestNextStepsAreCommands(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"plan", "install", "ripgrep"}, []string{"Next: wda search ripgrep"}},
		{[]string{"plan", "what", "failed", "recently"}, []string{"Next: wda logs --filter failures"}},
		{[]string{"install", "Git.Git", "--yes"}, []string{"Add-AppxPackage", "wda search Git.Git --source scoop"}},
		{[]string{"search", "ripgrep"}, []string{"App Installer", "wda search ripgrep --source chocolatey", "wda search ripgrep --source scoop"}},
		{[]string{"search", "ripgrep", "--source", "scoop"}, []string{"irm get.scoop.sh | iex", "wda search ripgrep --source winget"}},
		{[]string{"run", "create-pr", "--yes"}, []string{"wda search gh"}},
		{[]string{"list", "--upgrades"}, []string{"App Installer", "wda list --source chocolatey --upgrades"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			r := f.run(t, noTTY, nil, c.args...)
			all := r.stdout + r.stderr
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("no %q in:\n%s", w, all)
				}
			}
			for _, name := range toolNames() {
				if strings.Contains(all, name) {
					t.Errorf("names the tool %s:\n%s", name, all)
				}
			}
		})
	}
}

// TestCallOutsideProjectNamesProjectFlag: wda call's refusal of a folder outside the
// project says which folder the project is and that --project names another.
func TestCallOutsideProjectNamesProjectFlag(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	outside := filepath.Dir(f.project)
	args, _ := json.Marshal(map[string]any{"task": "run the tests", "cwd": outside})
	r := f.run(t, noTTY, nil, "call", "workflow_plan", string(args))
	if r.code != exitNotDone || !strings.Contains(r.stderr, "the project is $PROJECT: --project DIR makes another folder the project") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}
