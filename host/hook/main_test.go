package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUsageErrors(t *testing.T) {
	reg := testSpecs()
	for _, args := range [][]string{
		{},
		{"claude"},
		{"claude", "permission-request"},
		{"vscode", "stop"},
		{"codex", "post-tool-use-failure"},
		{"claude", "stop", "extra"},
		{"claude", "stop", "--data-dir"},
		{"claude", "stop", "--verbose"},
		{"codex", "stop", "--session-id", "x"},
	} {
		r := run(t, reg, nil, "{}", args...)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "usage: wda hook") {
			t.Errorf("%q: code %d stdout %q stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

// The data dir is --data-dir (either spelling, before or after the words), else
// WINDOWS_DEV_AGENT_DATA_DIR, else the host default; PLUGIN_DATA is never used by Codex
// and an unexpanded placeholder counts as unset.
func TestDataDirResolution(t *testing.T) {
	reg := testSpecs()
	base := t.TempDir()
	ev := eventJSON(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git status"}, "session_id": "s", "cwd": base})
	cases := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"flag after", nil, []string{"claude", "pre-tool-use", "--data-dir", filepath.Join(base, "a")}, filepath.Join(base, "a")},
		{"flag first, = form", nil, []string{"-data-dir=" + filepath.Join(base, "b"), "claude", "pre-tool-use"}, filepath.Join(base, "b")},
		{"env beats plugin data", map[string]string{"WINDOWS_DEV_AGENT_DATA_DIR": filepath.Join(base, "c"), "CLAUDE_PLUGIN_DATA": filepath.Join(base, "x")},
			[]string{"claude", "pre-tool-use"}, filepath.Join(base, "c")},
		{"claude plugin data", map[string]string{"CLAUDE_PLUGIN_DATA": filepath.Join(base, "d")}, []string{"claude", "pre-tool-use"}, filepath.Join(base, "d")},
		{"unexpanded flag falls back", map[string]string{"CLAUDE_PLUGIN_DATA": filepath.Join(base, "e")},
			[]string{"claude", "pre-tool-use", "--data-dir", "${CLAUDE_PLUGIN_DATA}"}, filepath.Join(base, "e")},
		{"codex home, not PLUGIN_DATA", map[string]string{"CODEX_HOME": filepath.Join(base, "cx"), "PLUGIN_DATA": filepath.Join(base, "pd")},
			[]string{"codex", "pre-tool-use"}, filepath.Join(base, "cx", "plugins", "data", "windows-dev-agent")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, reg, c.env, ev, c.args...)
			if r.code != 0 || r.stdout != "" {
				t.Fatalf("%+v", r)
			}
			if _, err := os.Stat(filepath.Join(c.want, "agent.log")); err != nil {
				t.Fatalf("no audit log in %s: %v", c.want, err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(base, "pd")); err == nil {
		t.Fatal("Codex hook wrote to PLUGIN_DATA")
	}
}

// A reader that panics stands for any bug on the hook path: the hooks still exit 0
// with empty or one-object output, and the permission hooks fail closed.
func TestPanicsAreRecovered(t *testing.T) {
	for _, c := range []struct {
		args     []string
		decision string
	}{
		{[]string{"claude", "pre-tool-use"}, "deny"},
		{[]string{"codex", "pre-tool-use"}, "deny"},
		{[]string{"codex", "permission-request"}, ""},
		{[]string{"claude", "post-tool-use"}, ""},
		{[]string{"codex", "stop"}, ""},
	} {
		var out, errb strings.Builder
		code := Run(testSpecs(), append(c.args, "--data-dir", t.TempDir()), panicReader{}, &out, &errb, func(string) string { return "" })
		m := decodeOne(t, out.String())
		if code != 0 || !strings.Contains(errb.String(), "internal error") {
			t.Fatalf("%v: code %d stderr %q", c.args, code, errb.String())
		}
		got := ""
		if m != nil {
			got = m["hookSpecificOutput"].(map[string]any)["permissionDecision"].(string)
		}
		if got != c.decision {
			t.Errorf("%v: decision %q, want %q", c.args, got, c.decision)
		}
	}
}

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("reader exploded") }
