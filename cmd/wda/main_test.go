package main

import (
	"bytes"
	"strings"
	"testing"
)

// The human commands run in-process through run(); these check their exit codes and
// that output is readable text (or JSON with --json).
func TestHumanCommands(t *testing.T) {
	data := t.TempDir()
	getenv := func(k string) string {
		switch k {
		case "WINDOWS_DEV_AGENT_DATA_DIR":
			return data
		case "WINDOWS_DEV_AGENT_PROJECT_DIR":
			return repoRoot(t)
		}
		return ""
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"version"}, 0, "windows-dev-agent "},
		{[]string{"tools"}, 0, "workflow_plan"},
		{[]string{"tools", "--json"}, 0, `"name": "env_inspect"`},
		{[]string{"skills"}, 0, "workflow-plan"},
		{[]string{"skills", "env-inspect"}, 0, "name: env-inspect"},
		{[]string{"skills", "nope"}, 2, ""},
		{[]string{"plan", "run the go tests"}, 0, "Selection: "},
		{[]string{"plan", "   "}, 1, "task must not be blank"},
		{[]string{"call", "logs_query", `{"last_n":120.0}`}, 1, ""},
		{[]string{"call", "capability_run", `{"capability":"no-such"}`}, 1, `"unknown_capability"`},
		{[]string{"logs", "--last", "5"}, 0, "matching event"},
		{[]string{"bogus"}, 2, ""},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(c.args, strings.NewReader(""), &out, &errb, getenv)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), c.want) {
				t.Fatalf("stdout lacks %q:\n%s", c.want, out.String())
			}
		})
	}
}
