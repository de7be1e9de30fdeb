package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

const cp = CopilotToolPrefix

// The Copilot preToolUse hook: forbidden → deny, approval-required and checkpoint →
// ask, read-only and reversible → nothing; project-scoped calls outside the event's
// cwd → deny; it never answers allow.
func TestCopilotPreToolUse(t *testing.T) {
	reg := testSpecs()
	p := makeProject(t)
	type row struct {
		name   string
		tool   string
		args   any
		cwd    any
		env    map[string]string
		want   string // "", "ask", "deny"
		reason string // a part of the reason
		links  bool
	}
	rows := []row{
		{name: "read-only tool", tool: cp + "env_inspect", args: map[string]any{}, cwd: p.root},
		{name: "no toolArgs", tool: cp + "env_inspect", cwd: p.root},
		{name: "approval-required tool", tool: cp + "tool_discover", args: map[string]any{}, cwd: p.root, want: "ask", reason: "approval-required"},
		{name: "package_install plan", tool: cp + "package_install", args: map[string]any{"package_id": "Git.Git"}, cwd: p.root},
		{name: "package_install execute", tool: cp + "package_install", args: map[string]any{"package_id": "Git.Git", "execute": true}, cwd: p.root, want: "ask"},
		{name: "execute as a string is not execute", tool: cp + "package_install", args: map[string]any{"package_id": "Git.Git", "execute": "true"}, cwd: p.root},
		{name: "checkpoint", tool: cp + "checkpointer", args: map[string]any{}, cwd: p.root, want: "ask", reason: "checkpoint"},
		{name: "forbidden capability inside", tool: cp + "capability_run", args: map[string]any{"capability": "dangerous", "execute": true, "cwd": p.child}, cwd: p.root, want: "deny", reason: "forbidden"},
		{name: "forbidden capability outside still says forbidden", tool: cp + "capability_run", args: map[string]any{"capability": "dangerous", "execute": true, "cwd": p.outside}, cwd: p.root, want: "deny", reason: "forbidden"},
		{name: "approval capability inside", tool: cp + "capability_run", args: map[string]any{"capability": "deploy", "execute": true, "cwd": p.child}, cwd: p.root, want: "ask"},
		{name: "read-only capability plan inside", tool: cp + "capability_run", args: map[string]any{"capability": "deploy", "cwd": p.child}, cwd: p.root},
		{name: "toolArgs as a JSON string", tool: cp + "capability_run", args: `{"capability":"dangerous","execute":true,"cwd":"` + filepath.ToSlash(p.child) + `"}`, cwd: p.root, want: "deny", reason: "forbidden"},
		{name: "toolArgs an unparsable string", tool: cp + "capability_run", args: `{"capability":`, cwd: p.root, want: "deny", reason: "toolArgs"},
		{name: "toolArgs a list", tool: cp + "env_inspect", args: []any{1}, cwd: p.root, want: "deny", reason: "toolArgs"},
		{name: "bash read-only", tool: "bash", args: map[string]any{"command": "git status --short"}, cwd: p.root},
		{name: "bash approval", tool: "bash", args: map[string]any{"command": "git push"}, cwd: p.root, want: "ask"},
		{name: "bash forbidden", tool: "bash", args: map[string]any{"command": "format C:"}, cwd: p.root, want: "deny", reason: "forbidden"},
		{name: "powershell forbidden", tool: "powershell", args: map[string]any{"command": "format C:"}, cwd: p.root, want: "deny"},
		{name: "unknown tool fails closed", tool: "other-server-tool", args: map[string]any{}, cwd: p.root, want: "ask"},
		{name: "bare prefix fails closed", tool: cp, args: map[string]any{}, cwd: p.root, want: "ask"},
		{name: "env project dir when the event has no cwd", tool: cp + "workflow_plan", args: map[string]any{"task": "t", "cwd": p.child},
			env: map[string]string{"COPILOT_PROJECT_DIR": p.root}},
		{name: "unexpanded env project dir", tool: cp + "workflow_plan", args: map[string]any{"task": "t", "cwd": p.child},
			env: map[string]string{"COPILOT_PROJECT_DIR": "${COPILOT_PROJECT_DIR}"}, want: "deny", reason: "no session cwd"},
		{name: "event cwd wins over the env", tool: cp + "workflow_plan", args: map[string]any{"task": "t", "cwd": p.outside}, cwd: p.root,
			env: map[string]string{"COPILOT_PROJECT_DIR": p.base}, want: "deny", reason: "inside"},
	}
	for tool, arg := range projectArgs {
		rows = append(rows,
			row{name: tool + " child", tool: cp + tool, args: map[string]any{arg: p.child}, cwd: p.root},
			row{name: tool + " outside", tool: cp + tool, args: map[string]any{arg: p.outside}, cwd: p.root, want: "deny", reason: "inside"},
			row{name: tool + " sibling", tool: cp + tool, args: map[string]any{arg: p.sibling}, cwd: p.root, want: "deny"},
			row{name: tool + " relative", tool: cp + tool, args: map[string]any{arg: "src"}, cwd: p.root, want: "deny", reason: "absolute"},
			row{name: tool + " missing", tool: cp + tool, args: map[string]any{}, cwd: p.root, want: "deny", reason: "required"},
			row{name: tool + " no session dir", tool: cp + tool, args: map[string]any{arg: p.child}, want: "deny"},
			row{name: tool + " symlink escape", tool: cp + tool, args: map[string]any{arg: p.link}, cwd: p.root, want: "deny", links: true},
		)
	}
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			if c.links && !p.links {
				t.Skip("symbolic links cannot be created here")
			}
			data := t.TempDir()
			ev := map[string]any{"sessionId": "S1", "timestamp": 1796113518808, "toolName": c.tool}
			if c.args != nil {
				ev["toolArgs"] = c.args
			}
			if c.cwd != nil {
				ev["cwd"] = c.cwd
			}
			r := run(t, reg, c.env, eventJSON(ev), "copilot", "pre-tool-use", "--data-dir", data)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			m := decodeOne(t, r.stdout)
			if c.want == "" {
				if m != nil {
					t.Fatalf("want no output, got %v", m)
				}
			} else {
				if m == nil {
					t.Fatalf("want %s, got no output", c.want)
				}
				if m["permissionDecision"] != c.want || len(m) != 2 {
					t.Fatalf("got %v, want exactly permissionDecision %s and a reason", m, c.want)
				}
				if reason, _ := m["permissionDecisionReason"].(string); !strings.Contains(reason, c.reason) {
					t.Fatalf("reason %q lacks %q", reason, c.reason)
				}
			}
			raw, recs := records(t, data)
			if len(recs) != 1 || recs[0]["host"] != "copilot" || recs[0]["session_id"] != "S1" || recs[0]["event"] != "PreToolUse" {
				t.Fatalf("audit records %v", recs)
			}
			decision := c.want
			if decision == "" {
				decision = "host-default"
			}
			if recs[0]["permission_decision"] != decision {
				t.Fatalf("audit decision %v, want %s", recs[0]["permission_decision"], decision)
			}
			// Only derived metadata: never the arguments or the paths.
			for _, leak := range []string{p.base, "dangerous", "git push", "format"} {
				if strings.Contains(raw, leak) {
					t.Fatalf("audit log stores %q: %s", leak, raw)
				}
			}
		})
	}
}

func TestCopilotPreToolUseFailsClosed(t *testing.T) {
	for _, in := range []string{"", "not json", "[]", `{"toolName":"x"} {}`} {
		r := run(t, testSpecs(), nil, in, "copilot", "pre-tool-use", "--data-dir", t.TempDir())
		m := decodeOne(t, r.stdout)
		if r.code != 0 || m == nil || m["permissionDecision"] != "deny" {
			t.Errorf("input %q: exit %d, output %v", in, r.code, m)
		}
	}
	// A panic while classifying denies too.
	c := &call{}
	if out, ok := copilotPanicDeny(c).(copilotOutput); !ok || out.PermissionDecision != "deny" {
		t.Fatalf("panic answer %v", out)
	}
}

// No handler of the Copilot hook may ever answer allow: scan every decision the
// classifier can produce for the shipped tools with and without execution.
func TestCopilotNeverAllows(t *testing.T) {
	p := makeProject(t)
	for _, sp := range testSpecs() {
		for _, args := range []map[string]any{{}, {"execute": true}, {"include_host": true}, {"cwd": p.child, "workspace_folder": p.child}} {
			ev := map[string]any{"sessionId": "S", "toolName": cp + sp.Name, "toolArgs": args, "cwd": p.root}
			r := run(t, testSpecs(), nil, eventJSON(ev), "copilot", "pre-tool-use", "--data-dir", t.TempDir())
			if m := decodeOne(t, r.stdout); m != nil && m["permissionDecision"] != "deny" && m["permissionDecision"] != "ask" {
				t.Fatalf("%s %v answered %v", sp.Name, args, m)
			}
		}
	}
}

// FuzzCopilotPreToolUse feeds the Copilot hook random bytes, or an event assembled from
// a random tool name, command, execute value, paths and toolArgs form, and asserts its
// contract: exit 0, stdout empty or exactly one JSON object whose decision is deny or
// ask, never a panic.
func FuzzCopilotPreToolUse(f *testing.F) {
	f.Add([]byte(`{"toolName":"bash","toolArgs":{"command":"git status"}}`), "", "", uint8(0), "", "", false)
	f.Add([]byte(nil), "bash", "format C:", uint8(0), "", "", false)
	f.Add([]byte(nil), cp+"workflow_plan", "", uint8(0), "/", "/tmp", false)
	f.Add([]byte(nil), cp+"capability_run", "dangerous", uint8(1), "/x", "..", true)
	f.Add([]byte(nil), cp+"package_install", "", uint8(3), "", "", true)
	f.Add([]byte(`{"toolName":"windows-dev-agent-env_inspect","toolArgs":"{\"a\":1} x"}`), "", "", uint8(0), "", "", false)
	f.Add([]byte(`not json`), "", "", uint8(0), "", "", false)
	f.Add([]byte(nil), "write_bash", "format C:{enter}", uint8(0), "", "", false)
	f.Add([]byte(nil), "write_powershell", "dis{left}{backspace}k\x1b[Dpart\r\n", uint8(0), "/", "", true)
	data := f.TempDir()
	reg := testSpecs()
	f.Fuzz(func(t *testing.T, raw []byte, tool, cmd string, execute uint8, cwd, arg string, asString bool) {
		stdin := raw
		if len(raw) == 0 {
			args := map[string]any{"command": cmd, "input": cmd, "shellId": arg, "cwd": arg, "workspace_folder": arg, "capability": cmd}
			switch execute % 4 {
			case 1:
				args["execute"] = true
			case 2:
				args["execute"] = false
			case 3:
				args["execute"] = cmd
			}
			var toolArgs any = args
			if asString {
				b, _ := json.Marshal(args)
				toolArgs = string(b)
			}
			var err error
			if stdin, err = json.Marshal(map[string]any{"toolName": tool, "toolArgs": toolArgs, "sessionId": "fuzz", "cwd": cwd}); err != nil {
				return
			}
		}
		var out, errb bytes.Buffer
		code := Run(reg, []string{"copilot", "pre-tool-use", "--data-dir", data}, bytes.NewReader(stdin), &out, &errb, func(string) string { return "" })
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		if strings.Contains(errb.String(), "internal error") {
			t.Fatalf("panicked: %s", errb.String())
		}
		if out.Len() == 0 {
			return
		}
		dec := json.NewDecoder(&out)
		var m map[string]any
		if err := dec.Decode(&m); err != nil || m == nil {
			t.Fatalf("output is not a JSON object: %q", out.String())
		}
		if _, err := dec.Token(); err != io.EOF {
			t.Fatal("output has more than one value")
		}
		if d := m["permissionDecision"]; d != "deny" && d != "ask" {
			t.Fatalf("answered %v", m)
		}
	})
}

// Issue 22 §1: the Copilot CLI's write_bash and write_powershell type into a running
// shell. What they type is read as the shell would receive it and classified as a
// command line: a forbidden one is denied; anything the hook cannot read to the end
// (a line without Enter, history keys, completion) or whose directory it does not
// know (a git form: the running shell may have changed directory) asks; nothing
// typed gets no answer.
func TestCopilotTypedInput(t *testing.T) {
	t.Parallel()
	p := makeProject(t)
	type row struct {
		name   string
		tool   string
		args   any
		want   string // "", "ask", "deny"
		reason string
	}
	typed := func(s string) map[string]any { return map[string]any{"shellId": "s1", "input": s, "delay": 10} }
	rows := []row{
		{name: "forbidden line", tool: "write_bash", args: typed("format C: /q{enter}"), want: "deny", reason: "forbidden"},
		{name: "forbidden line, PowerShell", tool: "write_powershell", args: typed("diskpart{enter}"), want: "deny", reason: "forbidden"},
		{name: "forbidden after a harmless line", tool: "write_powershell", args: typed("Get-ChildItem\r\nFormat-Volume -DriveLetter C\r\n"), want: "deny"},
		{name: "forbidden without Enter", tool: "write_bash", args: typed("diskpart"), want: "deny"},
		{name: "forbidden put together by cursor keys", tool: "write_bash", args: typed("diskart{left}{left}{left}p{enter}"), want: "deny"},
		{name: "forbidden put together by backspace", tool: "write_bash", args: typed("format X{backspace}C: /q{enter}"), want: "deny"},
		{name: "forbidden put together by escape sequences", tool: "write_bash", args: typed("diskart\x1b[D\x1b[D\x1b[Dp\r"), want: "deny"},
		{name: "forbidden split by a history key", tool: "write_bash", args: typed("disk{up}part{enter}"), want: "deny"},
		{name: "toolArgs as a JSON string", tool: "write_bash", args: `{"shellId":"s1","input":"format C:{enter}","delay":10}`, want: "deny"},
		{name: "read-only line", tool: "write_powershell", args: typed("Get-ChildItem src{enter}")},
		{name: "read-only line with LF", tool: "write_bash", args: typed("Get-ChildItem src\n")},
		{name: "git in an unknown directory", tool: "write_bash", args: typed("git status{enter}"), want: "ask", reason: "directory"},
		{name: "an answer to a prompt", tool: "write_bash", args: typed("y{enter}"), want: "ask", reason: "approval-required"},
		{name: "Enter alone", tool: "write_bash", args: typed("{enter}"), want: "ask"},
		{name: "a line without Enter", tool: "write_powershell", args: typed("Get-ChildItem src"), want: "ask", reason: "Enter"},
		{name: "history", tool: "write_bash", args: typed("{up}{enter}"), want: "ask"},
		{name: "history after read-only text", tool: "write_powershell", args: typed("Get-ChildItem src{up}{enter}"), want: "ask", reason: "keys"},
		{name: "backspace into an earlier write", tool: "write_bash", args: typed("{backspace}{enter}"), want: "ask"},
		{name: "tab completion", tool: "write_powershell", args: typed("Get-ChildItem sr\t{enter}"), want: "ask", reason: "keys"},
		{name: "Ctrl-C", tool: "write_bash", args: typed("\x03"), want: "ask"},
		{name: "approval-required line", tool: "write_bash", args: typed("git push{enter}"), want: "ask"},
		{name: "nothing typed", tool: "write_bash", args: map[string]any{"shellId": "s1", "delay": 10}},
		{name: "empty input", tool: "write_powershell", args: typed("")},
		{name: "input not a string", tool: "write_bash", args: map[string]any{"shellId": "s1", "input": 7}, want: "ask", reason: "string"},
		{name: "key names are case-sensitive", tool: "write_bash", args: typed("Get-ChildItem {Enter}"), want: "ask"},
	}
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			data := t.TempDir()
			ev := map[string]any{"sessionId": "S1", "toolName": c.tool, "toolArgs": c.args, "cwd": p.root}
			r := run(t, testSpecs(), nil, eventJSON(ev), "copilot", "pre-tool-use", "--data-dir", data)
			m := decodeOne(t, r.stdout)
			got := ""
			if m != nil {
				got, _ = m["permissionDecision"].(string)
			}
			if got != c.want {
				t.Fatalf("answered %v, want %q", m, c.want)
			}
			if reason, _ := m["permissionDecisionReason"].(string); m != nil && !strings.Contains(reason, c.reason) {
				t.Fatalf("reason %q lacks %q", reason, c.reason)
			}
			raw, recs := records(t, data)
			if len(recs) != 1 || recs[0]["tool_name"] != c.tool {
				t.Fatalf("audit records %v", recs)
			}
			for _, leak := range []string{"format", "diskpart", "Get-ChildItem"} {
				if strings.Contains(raw, leak) {
					t.Fatalf("audit log stores %q: %s", leak, raw)
				}
			}
		})
	}
}

// readTyped applies the line editing of the keys Copilot accepts.
func TestReadTyped(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in               string
		text, raw        string
		partial, inexact bool
	}{
		{in: "ls{enter}", text: "ls", raw: "ls\n"},
		{in: "a\r\nb\rc\n", text: "a\nb\nc", raw: "a\nb\nc\n"},
		{in: "ab", text: "ab", raw: "ab", partial: true},
		{in: "ab{backspace}c{enter}", text: "ac", raw: "ab\nc\n"},
		{in: "ac{left}b{right}d\x7f\b{enter}", text: "ab", raw: "ac\nb\nd\n\n\n"},
		{in: "é{backspace}x\n", text: "x", raw: "é\nx\n"},
		{in: "{left}x\n", text: "x", raw: "\nx\n", inexact: true},
		{in: "{down}{enter}", text: "", raw: "\n\n", inexact: true},
		{in: "x{right}{right}y\n", text: "xy", raw: "x\n\ny\n"},
		{in: "x\x1b[1;5Dy\n", text: "xy", raw: "x\ny\n", inexact: true},
		{in: "x\x1bOAy\n", text: "xy", raw: "x\ny\n", inexact: true},
		{in: "{Enter}{enterx}", text: "{Enter}{enterx}", raw: "{Enter}{enterx}", partial: true},
		{in: "\x1b", text: "", raw: "\n", inexact: true},
	}
	for _, c := range cases {
		got := readTyped(c.in)
		want := typedInput{text: c.text, raw: c.raw, partial: c.partial, inexact: c.inexact}
		if got != want {
			t.Errorf("readTyped(%q) = %+v, want %+v", c.in, got, want)
		}
	}
}

// FuzzReadTyped: no panic, output bounded by the input, and plain text (no keys, no
// control characters) reads as itself.
func FuzzReadTyped(f *testing.F) {
	for _, s := range []string{"ls{enter}", "a{left}{backspace}b\r\n", "\x1b[", "{up}", "é\x7f", "x\x1b[1;5D"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := readTyped(s)
		if len(got.raw) > len(s) || len(got.text) > 3*len(s) {
			t.Fatalf("readTyped(%q) grew: %+v", s, got)
		}
		plain := !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '{' }) && utf8.ValidString(s)
		if plain && (got.text != s || got.raw != s || got.inexact || got.partial != (s != "")) {
			t.Fatalf("readTyped(%q) = %+v", s, got)
		}
	})
}
