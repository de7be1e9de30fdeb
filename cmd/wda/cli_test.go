package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/cli")

// fixture is a project, a data directory and a PATH for in-process CLI runs.
type fixture struct {
	project, data, bin, home string
	env                      map[string]string
	// wd is the current folder the CLI sees ("": the test process's own).
	wd string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	resolve := func(p string) string {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	f := &fixture{project: resolve(t.TempDir()), data: resolve(t.TempDir()), bin: resolve(t.TempDir()), home: resolve(t.TempDir())}
	f.env = map[string]string{
		"PATH":                          f.bin,
		"WINDOWS_DEV_AGENT_PROJECT_DIR": f.project,
		"WINDOWS_DEV_AGENT_DATA_DIR":    f.data,
		"HOME":                          f.home,
		"USERPROFILE":                   f.home,
	}
	return f
}

func (f *fixture) getenv(k string) string { return f.env[k] }

// result is one CLI run.
type result struct {
	code           int
	stdout, stderr string
}

// run runs the CLI in process with tty as its terminal facts and stdin as input.
func (f *fixture) run(t *testing.T, tty ttyInfo, stdin io.Reader, args ...string) result {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	c := newCLI(context.Background(), stdin, &out, &errb, f.getenv)
	c.tty = tty
	if f.wd != "" {
		c.getwd = func() (string, error) { return f.wd, nil }
	}
	code := c.main(args)
	return result{code, f.normalize(out.String()), f.normalize(errb.String())}
}

// normalize replaces the fixture's temporary paths so golden files are stable.
func (f *fixture) normalize(s string) string {
	for _, r := range []struct{ path, name string }{{f.project, "$PROJECT"}, {f.data, "$DATA"}, {f.bin, "$BIN"}, {f.home, "$HOME"}} {
		s = strings.ReplaceAll(s, r.path, r.name)
		s = strings.ReplaceAll(s, filepath.ToSlash(r.path), r.name)
	}
	return s
}

func golden(t *testing.T, name string, args []string, r result) {
	t.Helper()
	text := "$ wda " + strings.Join(args, " ") + "\n--- exit " + itoa(r.code) + "\n--- stdout\n" + r.stdout + "--- stderr\n" + r.stderr
	testkit.Golden(t, filepath.Join("testdata", "cli", name+".golden"), []byte(text), *update)
}

func itoa(n int) string { return strconv.Itoa(n) }

var noTTY = ttyInfo{width: 80}

// TestGoldenPortable: help, usage errors and argument errors, on every OS.
func TestGoldenPortable(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"help", []string{"help"}, ""},
		{"help-flag", []string{"--help"}, ""},
		{"run-help", []string{"run", "--help"}, ""},
		{"run-h", []string{"run", "test-go", "-h"}, ""},
		{"install-help", []string{"install", "--help"}, ""},
		{"sandbox-help", []string{"sandbox", "--help"}, ""},
		{"search-help", []string{"search", "--help"}, ""},
		{"scan-help", []string{"scan", "--help"}, ""},
		{"audit-mcp-help", []string{"audit-mcp", "--help"}, ""},
		{"env-help", []string{"env", "--help"}, ""},
		{"logs-help", []string{"logs", "-h"}, ""},
		{"plan-help", []string{"help", "plan"}, ""},
		{"discover-help", []string{"discover", "--help"}, ""},
		{"call-help", []string{"call", "--help"}, ""},
		{"call-tool-help", []string{"call", "capability_run", "--help"}, ""},
		{"help-tool", []string{"help", "package_install"}, ""},
		{"help-unknown", []string{"help", "nope"}, ""},
		{"skills-help", []string{"skills", "--help"}, ""},
		{"tools-help", []string{"tools", "--help"}, ""},
		{"doctor-help", []string{"doctor", "--help"}, ""},
		{"unknown-command", []string{"lgos"}, ""},
		{"tool-as-command", []string{"capability_run"}, ""},
		{"unknown-flag", []string{"run", "test-go", "--bogus"}, ""},
		{"timeout-range", []string{"run", "test-go", "--timeout", "0"}, ""},
		{"timeout-not-number", []string{"run", "test-go", "--timeout", "soon"}, ""},
		{"missing-positional", []string{"run"}, ""},
		{"two-commands", []string{"sandbox", "make", "test", "--isolation", "linux_compatibility"}, ""},
		{"yes-and-plan", []string{"run", "test-go", "--yes", "--plan"}, ""},
		{"scan-extra-arg", []string{"scan", "here"}, ""},
		{"call-unknown-tool", []string{"call", "nope"}, ""},
		{"call-no-tool", []string{"call"}, ""},
		{"json-single-quotes", []string{"call", "capability_run", `'{"capability":"test-go"}'`}, ""},
		{"json-quotes-stripped", []string{"call", "capability_run", `{capability:test-go}`}, ""},
		{"json-backslash", []string{"call", "capability_run", `{"capability":"test-go","cwd":"C:\Users\me"}`}, ""},
		{"json-array", []string{"call", "capability_run", `["test-go"]`}, ""},
		{"json-trailing", []string{"call", "capability_run", `{"capability":"test-go"} x`}, ""},
		{"json-unclosed", []string{"call", "capability_run", `{"capability":"test-go"`}, ""},
		{"json-stdin-multiline", []string{"call", "capability_run", "-"}, "{\n  \"capability\": \"test-go\",\n  \"cwd\": \"C:\\temp\"\n}\n"},
		{"json-stdin-empty", []string{"call", "capability_run", "--args-file", "-"}, ""},
		{"json-file-missing", []string{"call", "capability_run", "--args-file", "no-such-file.json"}, ""},
		{"json-both", []string{"call", "capability_run", "{}", "--args-file", "-"}, ""},
		{"call-invalid-args", []string{"call", "logs_query", `{"last_n":500}`}, ""},
		{"call-unknown-arg", []string{"call", "env_inspect", `{"refresh":true}`}, ""},
		{"logs-bad-filter", []string{"logs", "--filter", "errors"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if (tc.name == "json-file-missing" || tc.name == "json-stdin-multiline") && goruntime.GOOS == "windows" {
				t.Skip("the OS's own words differ (a missing file; C:\\temp is an absolute path there)")
			}
			f := newFixture(t)
			r := f.run(t, noTTY, strings.NewReader(tc.stdin), tc.args...)
			golden(t, tc.name, tc.args, r)
		})
	}
}

// TestArgsFileEncodings: what Windows editors and PowerShell write is read as the same
// object: UTF-8 with a byte-order mark, UTF-16LE and UTF-16BE with one.
func TestArgsFileEncodings(t *testing.T) {
	t.Parallel()
	obj := `{"last_n": 3, "filter": "failures"}`
	utf16 := func(s string, le bool) []byte {
		out := []byte{0xFE, 0xFF}
		if le {
			out = []byte{0xFF, 0xFE}
		}
		for _, r := range s {
			if le {
				out = append(out, byte(r), byte(r>>8))
			} else {
				out = append(out, byte(r>>8), byte(r))
			}
		}
		return out
	}
	for name, data := range map[string][]byte{
		"utf8":     []byte(obj),
		"utf8-bom": append([]byte{0xEF, 0xBB, 0xBF}, obj...),
		"utf16le":  utf16(obj, true),
		"utf16be":  utf16(obj, false),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			file := filepath.Join(f.home, "args.json")
			if err := os.WriteFile(file, data, 0o600); err != nil {
				t.Fatal(err)
			}
			r := f.run(t, noTTY, nil, "call", "logs_query", "--args-file", file)
			if r.code != 0 || !strings.Contains(r.stdout, `"status":"ok"`) {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestExitCodes: a status that means "what was asked did not happen" exits 1.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	for status, want := range map[string]int{
		"ok": 0, "degraded": 0, "completed": 0, "planned": 0, "launched": 0, "issues_found": 0,
		"failed": 1, "invalid_input": 1, "blocked": 1, "stale_plan": 1, "unavailable": 1, "cancelled": 1,
		"unknown_capability": 1, "configuration_error": 1, "unknown": 1, "incomplete": 1, "": 1,
	} {
		if got := exitFor(map[string]any{"status": status}); got != want {
			t.Errorf("status %q exits %d, want %d", status, got, want)
		}
	}
}

// TestFlagsCoverSchemas: every input property of a tool with a command is reachable
// from the command line (a flag, the positional argument or the arguments after --),
// except the echo of a reviewed plan, which only execute_arguments carries. A property
// added to a tool gets a flag without a change here; this test fails if one cannot.
func TestFlagsCoverSchemas(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, tc := range toolCommands {
		tool := lookupTool(tc.tool)
		if tool == nil {
			t.Fatalf("%s names unknown tool %s", tc.name, tc.tool)
		}
		seen[tc.tool] = true
		flags := map[string]bool{}
		for _, f := range tc.flags(tool) {
			if flags[f.name] || f.name == "json" || f.name == "project" || f.name == "data-dir" || f.name == "yes" || f.name == "plan" || f.name == "explain" {
				t.Errorf("%s: flag --%s collides", tc.name, f.name)
			}
			flags[f.name] = true
		}
		if _, err := tc.parse(nil); err != nil && tc.positional == "" {
			t.Errorf("%s with no arguments: %v", tc.name, err)
		}
		if tc.planFirst != tool.PlanFirst() {
			t.Errorf("%s: planFirst %v, tool plan-first %v", tc.name, tc.planFirst, tool.PlanFirst())
		}
	}
	for _, name := range toolNames() {
		if !seen[name] {
			t.Errorf("tool %s has no command", name)
		}
	}
}

// TestParseBuildsArguments: flags become exactly the arguments the user set; the
// tool's defaults stay the tool's.
func TestParseBuildsArguments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cmd  string
		argv []string
		want map[string]any
	}{
		{"run", []string{"test-go"}, map[string]any{"capability": "test-go"}},
		{"run", []string{"--timeout", "30", "test-go", "--cwd", "sub", "--", "-run", "TestX", "--", "y"},
			map[string]any{"capability": "test-go", "timeout_seconds": 30, "cwd": "sub", "extra_args": []any{"-run", "TestX", "--", "y"}}},
		{"search", []string{"visual", "studio", "code", "--source", "scoop"}, map[string]any{"query": "visual studio code", "source": "scoop"}},
		{"sandbox", []string{"make test", "--isolation", "untrusted_windows", "--payload", "a.txt", "--payload", "dir"},
			map[string]any{"command": "make test", "isolation_requirement": "untrusted_windows", "payload_paths": []any{"a.txt", "dir"}}},
		{"scan", []string{"--include-host", "--include-packages=true"}, map[string]any{"include_host": true, "include_packages": true}},
		{"audit-mcp", []string{"--config", "x.toml"}, map[string]any{"config_path": "x.toml"}},
		{"logs", []string{"--last", "5", "--filter", "failures"}, map[string]any{"last_n": 5, "filter": "failures"}},
		{"env", []string{"--refresh"}, map[string]any{"force_refresh": true, "detail": "full"}},
		{"plan", []string{"run", "the", "tests", "--context", "go"}, map[string]any{"task": "run the tests", "context": "go"}},
	}
	for _, c := range cases {
		p, err := findToolCommand(c.cmd).parse(c.argv)
		if err != nil {
			t.Errorf("%s %v: %v", c.cmd, c.argv, err)
			continue
		}
		if d := diffAny(c.want, p.args); d != "" {
			t.Errorf("%s %v: arguments (-want +got):\n%s", c.cmd, c.argv, d)
		}
	}
}

// TestProgressLine: frames are drawn in place with \r, padded over a longer previous
// frame, cut to the width, control characters removed, and cleared at the end; a late
// update draws nothing.
func TestProgressLine(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	p := newProgressLine(&b, 30)
	p.tick = 0
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return clock }
	p.begin("wda run test-go")
	for _, msg := range []string{"ok  example.com/m\t0.01s", "x", "\x1b[31mred\x1b[0m"} {
		clock = clock.Add(time.Second)
		p.update(msg)
	}
	clock = clock.Add(70 * time.Second)
	p.update("")
	p.end()
	p.update("late")
	wantFrames := []string{
		"wda run test-go 0s",
		"wda run test-go 1s  ok  exam…",
		"wda run test-go 2s  x        ",
		"wda run test-go 3s  [31mred …",
		"wda run test-go 1m13s        ",
		"                     ",
		"",
	}
	if d := cmp.Diff(wantFrames, strings.Split(b.String(), "\r")[1:]); d != "" {
		t.Fatalf("frames (-want +got):\n%s", d)
	}
}

func diffAny(want, got any) string { return cmp.Diff(want, got) }

// TestEveryFlagHasHelp: every flag and argument of every command says what it is for,
// from the tool's schema or, where the schema is terse for the model's sake, from the
// CLI's own help text.
func TestEveryFlagHasHelp(t *testing.T) {
	t.Parallel()
	for _, tc := range toolCommands {
		tool := lookupTool(tc.tool)
		in := schema.In(tool)
		for _, prop := range []string{tc.positional, tc.rest} {
			if s, ok := in.Properties.Get(prop); prop != "" && ok && tc.describe(prop, s) == "" {
				t.Errorf("wda %s: %s has no help", tc.name, prop)
			}
		}
		for _, f := range tc.flags(tool) {
			if tc.describe(f.prop, f.s) == "" {
				t.Errorf("wda %s: --%s has no help", tc.name, f.name)
			}
		}
	}
}
