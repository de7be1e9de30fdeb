package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

var fuzzHooks = [][]string{
	{"claude", "pre-tool-use"}, {"claude", "post-tool-use"}, {"claude", "post-tool-use-failure"}, {"claude", "stop"},
	{"codex", "pre-tool-use"}, {"codex", "permission-request"}, {"codex", "post-tool-use"}, {"codex", "stop"},
}

// FuzzHookStdin feeds every hook random bytes, or an event assembled from a random tool
// name, command, execute value and paths, and asserts the host contracts: exit 0,
// stdout empty or exactly one JSON object, the Claude gate never answers allow, Codex
// PreToolUse never answers allow or ask, no panic reaches the recovery path.
func FuzzHookStdin(f *testing.F) {
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"git status"}}`), "", "", uint8(0), "", "", uint8(0))
	f.Add([]byte(nil), "Bash", "format C:", uint8(0), "", "", uint8(4))
	f.Add([]byte(nil), "mcp__windows_dev_agent__workflow_plan", "", uint8(0), "/", "/tmp", uint8(5))
	f.Add([]byte(nil), "mcp__windows_dev_agent__package_install", "", uint8(2), "", "", uint8(5))
	f.Add([]byte(nil), "mcp__plugin_windows-dev-agent_windows-dev-agent__capability_run", "", uint8(1), "/x", "..", uint8(0))
	f.Add([]byte(`not json`), "", "", uint8(0), "", "", uint8(4))
	f.Add([]byte(`{"session_id":"s","tool_response":{"content":[{"type":"text","text":"{\"status\":\"completed\"}"}]}}`), "", "", uint8(0), "", "", uint8(2))
	data := f.TempDir()
	reg := testSpecs()
	f.Fuzz(func(t *testing.T, raw []byte, tool, cmd string, execute uint8, cwd, arg string, which uint8) {
		stdin := raw
		if len(raw) == 0 {
			input := map[string]any{"command": cmd, "cwd": arg, "workspace_folder": arg, "capability": cmd}
			switch execute % 4 {
			case 1:
				input["execute"] = true
			case 2:
				input["execute"] = false
			case 3:
				input["execute"] = cmd
			}
			ev := map[string]any{"tool_name": tool, "tool_input": input, "session_id": "fuzz", "cwd": cwd,
				"tool_response": map[string]any{"status": cmd, "execution_started": execute%2 == 0}}
			var err error
			if stdin, err = json.Marshal(ev); err != nil {
				return
			}
		}
		h := fuzzHooks[int(which)%len(fuzzHooks)]
		var out, errb bytes.Buffer
		code := Run(reg, append(h, "--data-dir", data), bytes.NewReader(stdin), &out, &errb, func(string) string { return "" })
		if code != 0 {
			t.Fatalf("%v exit %d", h, code)
		}
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("%v panicked: %s", h, errb.String())
		}
		if out.Len() == 0 {
			return
		}
		dec := json.NewDecoder(&out)
		var m map[string]any
		if err := dec.Decode(&m); err != nil || m == nil {
			t.Fatalf("%v output is not a JSON object: %q", h, out.String())
		}
		if _, err := dec.Token(); err != io.EOF {
			t.Fatalf("%v output has more than one value", h)
		}
		hso, _ := m["hookSpecificOutput"].(map[string]any)
		decision, _ := hso["permissionDecision"].(string)
		switch h[0] + " " + h[1] {
		case "claude pre-tool-use":
			if decision != "deny" && decision != "ask" {
				t.Fatalf("Claude gate answered %q", decision)
			}
		case "codex pre-tool-use":
			if decision != "deny" {
				t.Fatalf("Codex PreToolUse answered %q", decision)
			}
		case "codex permission-request":
			d, _ := hso["decision"].(map[string]any)
			if b := d["behavior"]; b != "allow" && b != "deny" {
				t.Fatalf("PermissionRequest behavior %v", b)
			}
		case "claude stop", "codex stop":
			if _, ok := m["systemMessage"].(string); !ok || len(m) != 1 {
				t.Fatalf("Stop output %v", m)
			}
		default:
			t.Fatalf("trace hook printed %q", out.String())
		}
	})
}
