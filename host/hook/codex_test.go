package hook

import (
	"github.com/windows-dev-agent/wda/internal/hookscope"
	"path/filepath"
	"strings"
	"testing"
)

const cx = "mcp__windows_dev_agent__"

// projectArgs is the project argument of each project-scoped tool (docs/safety.md, "Under Codex").
var projectArgs = map[string]string{"capability_run": "cwd", "workflow_plan": "cwd", "sandbox_run": "workspace_folder",
	"ecosystem_scan": "cwd", "mcp_audit": "cwd"}

// docs/hooks.md, "Codex", "PreToolUse": it answers only deny.
func TestCodexPreToolUse(t *testing.T) {
	reg := testSpecs()
	p := makeProject(t)
	type row struct {
		name  string
		tool  string
		input map[string]any
		cwd   any
		deny  string // "", "forbidden" or "scope"
		links bool
	}
	rows := []row{
		{name: "git status", tool: "Bash", input: map[string]any{"command": "git status --short"}, cwd: p.root},
		{name: "approval-required shell", tool: "Bash", input: map[string]any{"command": "git push"}, cwd: p.root},
		{name: "package_install execute", tool: cx + "package_install", input: map[string]any{"package_id": "Git.Git", "execute": true}, cwd: p.root},
		{name: "format C:", tool: "Bash", input: map[string]any{"command": "format C:"}, cwd: p.root, deny: "forbidden"},
		{name: "forbidden capability inside", tool: cx + "capability_run", input: map[string]any{"capability": "dangerous", "execute": true, "cwd": p.child}, cwd: p.root, deny: "forbidden"},
		{name: "non-project tool without cwd", tool: cx + "env_inspect", input: map[string]any{}, cwd: nil},
	}
	for tool, arg := range projectArgs {
		rows = append(rows,
			row{name: tool + " child", tool: cx + tool, input: map[string]any{arg: p.child}, cwd: p.root},
			row{name: tool + " root", tool: cx + tool, input: map[string]any{arg: p.root}, cwd: p.root},
			row{name: tool + " outside", tool: cx + tool, input: map[string]any{arg: p.outside}, cwd: p.root, deny: "scope"},
			row{name: tool + " sibling", tool: cx + tool, input: map[string]any{arg: p.sibling}, cwd: p.root, deny: "scope"},
			row{name: tool + " dot-dot", tool: cx + tool, input: map[string]any{arg: filepath.Join(p.child, "..", "..", "outside")}, cwd: p.root, deny: "scope"},
			row{name: tool + " relative", tool: cx + tool, input: map[string]any{arg: "src"}, cwd: p.root, deny: "scope"},
			row{name: tool + " missing argument", tool: cx + tool, input: map[string]any{}, cwd: p.root, deny: "scope"},
			row{name: tool + " non-string argument", tool: cx + tool, input: map[string]any{arg: 1}, cwd: p.root, deny: "scope"},
			row{name: tool + " missing dir", tool: cx + tool, input: map[string]any{arg: filepath.Join(p.root, "nope")}, cwd: p.root, deny: "scope"},
			row{name: tool + " missing event cwd", tool: cx + tool, input: map[string]any{arg: p.child}, cwd: nil, deny: "scope"},
			row{name: tool + " blank event cwd", tool: cx + tool, input: map[string]any{arg: p.child}, cwd: " ", deny: "scope"},
			row{name: tool + " relative event cwd", tool: cx + tool, input: map[string]any{arg: p.child}, cwd: "proj", deny: "scope"},
			row{name: tool + " non-string event cwd", tool: cx + tool, input: map[string]any{arg: p.child}, cwd: 7, deny: "scope"},
			row{name: tool + " symlink escape", tool: cx + tool, input: map[string]any{arg: p.link}, cwd: p.root, deny: "scope", links: true},
			row{name: tool + " other prefix", tool: plug + tool, input: map[string]any{arg: p.outside}, cwd: p.root, deny: "scope"},
		)
	}
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			if c.links && !p.links {
				t.Skip("symbolic links cannot be created here")
			}
			data := t.TempDir()
			ev := map[string]any{"session_id": "C1", "tool_use_id": "U", "tool_name": c.tool, "tool_input": c.input,
				"hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default", "transcript_path": "/t"}
			if c.cwd != nil {
				ev["cwd"] = c.cwd
			}
			r := run(t, reg, nil, eventJSON(ev), "codex", "pre-tool-use", "--data-dir", data)
			m := decodeOne(t, r.stdout)
			if r.code != 0 {
				t.Fatalf("exit %d", r.code)
			}
			if c.deny == "" {
				if m != nil {
					t.Fatalf("want no output, got %v", m)
				}
			} else {
				if m == nil {
					t.Fatal("want deny, got no output")
				}
				hso := m["hookSpecificOutput"].(map[string]any)
				reason := hso["permissionDecisionReason"].(string)
				if hso["permissionDecision"] != "deny" || hso["hookEventName"] != "PreToolUse" {
					t.Fatalf("output %v", m)
				}
				wantCtx := map[string]string{"forbidden": "windows-dev-agent host=codex safety_class=forbidden",
					"scope": "windows-dev-agent host=codex project_scope=denied"}[c.deny]
				if hso["additionalContext"] != wantCtx {
					t.Errorf("context %v, want %s", hso["additionalContext"], wantCtx)
				}
				if c.deny == "scope" && !strings.Contains(reason, "project-scope escape") || !strings.Contains(reason, "project") && c.deny == "scope" {
					t.Errorf("reason %q", reason)
				}
				if c.deny == "forbidden" && !strings.Contains(reason, "forbidden action") {
					t.Errorf("reason %q", reason)
				}
			}
			_, recs := records(t, data)
			want := "host-default"
			if c.deny != "" {
				want = "deny"
			}
			rec := recs[0]
			if len(recs) != 1 || rec["permission_decision"] != want || rec["host"] != "codex" || rec["execution_outcome"] != "not_applicable" ||
				rec["event"] != "PreToolUse" || rec["permission_denied"] != (c.deny != "") || rec["session_id"] != "C1" {
				t.Errorf("records %v", recs)
			}
			// Every allowed call of this server with a session directory hands it over
			// (for a project-scoped call, the directory it was checked against); a shell
			// call, a denied call and another prefix's tool do not.
			handed, ok := hookscope.Take(data, "U")
			if wantHand := c.deny == "" && strings.HasPrefix(c.tool, cx) && c.cwd != nil; ok != wantHand {
				t.Errorf("hand-over present %v, want %v", ok, wantHand)
			} else if ok && (handed.Cwd != p.root || handed.Session != "C1") {
				t.Errorf("hand-over %+v, want the session's resolved cwd %s", handed, p.root)
			}
		})
	}
}

func TestCodexPreToolUseUnparsable(t *testing.T) {
	for _, in := range []string{"", "{", "[]", "true"} {
		r := run(t, testSpecs(), nil, in, "codex", "pre-tool-use", "--data-dir", t.TempDir())
		m := decodeOne(t, r.stdout)
		if r.code != 0 || m == nil || m["hookSpecificOutput"].(map[string]any)["permissionDecision"] != "deny" {
			t.Errorf("%q: %+v", in, r)
		}
	}
}

// docs/hooks.md, "Codex", "PermissionRequest".
func TestCodexPermissionRequest(t *testing.T) {
	reg := testSpecs()
	p := makeProject(t)
	cases := []struct {
		name  string
		tool  string
		input map[string]any
		cwd   any
		want  string // "allow", "deny" or "" (no output)
	}{
		{"package_install plan", cx + "package_install", map[string]any{"package_id": "Git.Git", "execute": false}, p.root, "allow"},
		{"package_install default plan", cx + "package_install", map[string]any{"package_id": "Git.Git"}, nil, "allow"},
		{"package_install non-boolean execute", cx + "package_install", map[string]any{"package_id": "Git.Git", "execute": "true"}, nil, "allow"},
		{"package_install execute", cx + "package_install", map[string]any{"package_id": "Git.Git", "execute": true}, p.root, ""},
		{"capability plan inside", cx + "capability_run", map[string]any{"capability": "deploy", "cwd": p.child}, p.root, "allow"},
		{"capability plan at root", cx + "capability_run", map[string]any{"capability": "deploy", "execute": false, "cwd": p.root}, p.root, "allow"},
		{"capability plan outside", cx + "capability_run", map[string]any{"capability": "deploy", "cwd": p.outside}, p.root, ""},
		{"capability plan relative", cx + "capability_run", map[string]any{"capability": "deploy", "cwd": "."}, p.root, ""},
		{"capability plan without cwd", cx + "capability_run", map[string]any{"capability": "deploy"}, p.root, ""},
		{"capability execute inside", cx + "capability_run", map[string]any{"capability": "lint", "execute": true, "cwd": p.child}, p.root, ""},
		{"forbidden capability", cx + "capability_run", map[string]any{"capability": "dangerous", "execute": true, "cwd": p.child}, p.root, "deny"},
		{"workflow_plan inside", cx + "workflow_plan", map[string]any{"task": "build", "cwd": p.root}, p.root, "allow"},
		{"workflow_plan absolute descendant", cx + "workflow_plan", map[string]any{"task": "build", "cwd": p.child}, p.root, "allow"},
		{"workflow_plan outside", cx + "workflow_plan", map[string]any{"task": "build", "cwd": p.outside}, p.root, ""},
		{"workflow_plan sibling", cx + "workflow_plan", map[string]any{"task": "build", "cwd": p.sibling}, p.root, ""},
		{"workflow_plan relative", cx + "workflow_plan", map[string]any{"task": "build", "cwd": "src"}, p.root, ""},
		{"workflow_plan missing event cwd", cx + "workflow_plan", map[string]any{"task": "build", "cwd": p.child}, nil, ""},
		{"workflow_plan relative event cwd", cx + "workflow_plan", map[string]any{"task": "build", "cwd": p.child}, "proj", ""},
		{"workflow_plan not a dir", cx + "workflow_plan", map[string]any{"task": "build", "cwd": filepath.Join(p.root, "nope")}, p.root, ""},
		{"sandbox_run plan", cx + "sandbox_run", map[string]any{"command": "ls", "isolation_requirement": "linux_compatibility", "workspace_folder": p.child}, p.root, ""},
		{"ecosystem_scan", cx + "ecosystem_scan", map[string]any{"cwd": p.child}, p.root, ""},
		{"mcp_audit", cx + "mcp_audit", map[string]any{"cwd": p.child}, p.root, ""},
		{"tool_discover", cx + "tool_discover", map[string]any{}, p.root, ""},
		{"package_search", cx + "package_search", map[string]any{"query": "git"}, p.root, ""},
		{"env_inspect", cx + "env_inspect", map[string]any{}, p.root, ""},
		{"other server", "mcp__other__package_install", map[string]any{"execute": false}, p.root, ""},
		{"forbidden shell", "Bash", map[string]any{"command": "diskpart"}, p.root, "deny"},
		{"read-only shell", "Bash", map[string]any{"command": "git status"}, p.root, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := t.TempDir()
			ev := map[string]any{"session_id": "C2", "tool_use_id": "U", "tool_name": c.tool, "tool_input": c.input,
				"hook_event_name": "PermissionRequest", "turn_id": "t", "approval_context": map[string]any{}}
			if c.cwd != nil {
				ev["cwd"] = c.cwd
			}
			r := run(t, reg, nil, eventJSON(ev), "codex", "permission-request", "--data-dir", data)
			m := decodeOne(t, r.stdout)
			got := ""
			if m != nil {
				hso := m["hookSpecificOutput"].(map[string]any)
				if hso["hookEventName"] != "PermissionRequest" {
					t.Fatalf("output %v", m)
				}
				d := hso["decision"].(map[string]any)
				got = d["behavior"].(string)
				msg, hasMsg := d["message"]
				if got == "deny" && msg != "Windows Dev Agent blocked a forbidden action" || got == "allow" && hasMsg {
					t.Errorf("decision %v", d)
				}
			}
			if r.code != 0 || got != c.want {
				t.Fatalf("decision %q, want %q (%+v)", got, c.want, r)
			}
			_, recs := records(t, data)
			want := c.want
			if want == "" {
				want = "host-default"
			}
			if len(recs) != 1 || recs[0]["permission_decision"] != want || recs[0]["event"] != "PermissionRequest" ||
				recs[0]["execution_outcome"] != "not_applicable" || recs[0]["host"] != "codex" {
				t.Errorf("records %v", recs)
			}
		})
	}
	// Unparsable input: no answer (Codex prompts), exit 0, no record.
	for _, in := range []string{"", "{", "[]"} {
		data := t.TempDir()
		r := run(t, reg, nil, in, "codex", "permission-request", "--data-dir", data)
		if r.code != 0 || r.stdout != "" {
			t.Errorf("%q: %+v", in, r)
		}
	}
}

func TestCodexTraceAndStop(t *testing.T) {
	reg := testSpecs()
	data := t.TempDir()
	const secret = "SECRET-TOKEN-5f1c"
	post := func(session, tool string, input, response any) {
		ev := eventJSON(map[string]any{"session_id": session, "tool_name": tool, "tool_input": input, "tool_response": response,
			"tool_use_id": "u", "turn_id": "t", "cwd": "/p", "duration_ms": 12})
		if r := run(t, reg, nil, ev, "codex", "post-tool-use", "--data-dir", data); r.code != 0 || r.stdout != "" {
			t.Fatalf("trace: %+v", r)
		}
	}
	// The response arrives as MCP content whose text is the JSON result.
	content := func(v string) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": v}}}
	}
	post("K1", cx+"package_install", map[string]any{"package_id": secret, "execute": true},
		content(`{"status":"completed","succeeded":true,"execution_started":true,"stdout":"`+secret+`"}`))
	post("K2", cx+"sandbox_run", map[string]any{"command": secret, "execute": true}, content(`{"status":"launched","execution_started":true}`))
	post("K2", "Read", map[string]any{"file_path": secret}, "x")
	raw, recs := records(t, data)
	if strings.Contains(raw, secret) {
		t.Fatalf("audit log stores payload data: %s", raw)
	}
	if len(recs) != 2 {
		t.Fatalf("want 2 records (the non-WDA tool is not traced), got %v", recs)
	}
	first := recs[0]
	for k, want := range map[string]any{"event": "PostToolUse", "execution_outcome": "succeeded", "result_status": "completed",
		"execution_started": true, "host": "codex", "success": nil, "lifecycle_success": nil, "session_id": "K1", "duration_ms": 12.0} {
		if first[k] != want {
			t.Errorf("record %s = %v, want %v", k, first[k], want)
		}
	}
	if recs[1]["execution_outcome"] != "unknown" {
		t.Errorf("launched → %v", recs[1]["execution_outcome"])
	}
	r := run(t, reg, nil, `{"session_id":"K2","hook_event_name":"Stop"}`, "codex", "stop", "--data-dir", data)
	m := decodeOne(t, r.stdout)
	want := "Windows Dev Agent session audit: events=1, execution_succeeded=0, execution_failed=0, execution_unknown=1, not_executed=0, external_process_started=1, permission_denials=0."
	if r.code != 0 || m == nil || m["systemMessage"] != want || len(m) != 1 {
		t.Fatalf("stop: %+v", r)
	}
	for _, in := range []string{`{"session_id":"NONE"}`, `{}`, "nope", ""} {
		if r := run(t, reg, nil, in, "codex", "stop", "--data-dir", data); r.code != 0 || r.stdout != "" {
			t.Errorf("%q: %+v", in, r)
		}
	}
}
