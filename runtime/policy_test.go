package runtime_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
)

func policyConnect(t *testing.T, reg *tools.Registry, dataDir string, st *policy.State) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	srv := runtime.NewServer(reg, runtime.Options{DataDir: dataDir, ProjectDir: t.TempDir(),
		Getenv: func(string) string { return "" }, Policy: st})
	sT, cT := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, sT, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, cT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// TestPolicyBlocks: a call the managed policy refuses answers blocked naming the
// rule and the source, the handler does not run, and the audit record carries the
// policy's rule; a broken policy refuses what would execute and lets read-only calls
// answer; the instructions name the policy.
func TestPolicyBlocks(t *testing.T) {
	byExecute := tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{{When: tools.WhenTrue("execute"), Class: tools.ApprovalRequired}}}
	reg := tools.New()
	reg.Register(auditTool("capability_run", byExecute, tools.WhenTrue("execute")))
	reg.Register(auditTool("probe", tools.Classification{Base: tools.ReadOnly}, tools.NeverCond))
	p, err := policy.Parse([]byte(`{"max_execute_class": "reversible", "disabled_tools": []}`))
	if err != nil {
		t.Fatal(err)
	}
	good := &policy.State{Source: `HKLM\SOFTWARE\Policies\WindowsDevAgent`, SHA256: "ab12", Policy: p}
	broken := &policy.State{Source: "/etc/windows-dev-agent/policy.json", SHA256: "cd34",
		Err: errors.New("/etc/windows-dev-agent/policy.json: line 2, column 3: unknown key \"x\"")}
	for _, tc := range []struct {
		name     string
		st       *policy.State
		tool     string
		args     map[string]any
		status   string
		text     string
		rule     string
		instruct string
	}{
		{"rule", good, "capability_run", map[string]any{"mode": "done", "execute": true}, "blocked",
			`blocked by managed policy rule max_execute_class (source HKLM\SOFTWARE\Policies\WindowsDevAgent)`, "policy_max_execute_class",
			`A managed policy is in force (source HKLM\SOFTWARE\Policies\WindowsDevAgent, sha256 ab12): calls it refuses answer blocked.`},
		{"plan passes", good, "capability_run", map[string]any{"mode": "done"}, "planned", "", "", ""},
		{"broken refuses execution", broken, "capability_run", map[string]any{"mode": "done", "execute": true}, "blocked",
			`blocked: the managed policy cannot be used, so calls that would execute are refused: /etc/windows-dev-agent/policy.json: line 2, column 3: unknown key "x"`,
			"policy_unreadable", "but cannot be used"},
		{"broken lets read-only answer", broken, "probe", map[string]any{"mode": "ok"}, "ok", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			cs := policyConnect(t, reg, dir, tc.st)
			if tc.instruct != "" && !strings.Contains(cs.InitializeResult().Instructions, tc.instruct) {
				t.Errorf("instructions %q do not contain %q", cs.InitializeResult().Instructions, tc.instruct)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			out, _ := res.StructuredContent.(map[string]any)
			if out["status"] != tc.status {
				t.Fatalf("status %v, want %s: %v", out["status"], tc.status, out)
			}
			if tc.text != "" && out["error"] != tc.text {
				t.Errorf("error %q\nwant  %q", out["error"], tc.text)
			}
			recs, err := audit.Read(dir)
			if err != nil || len(recs) != 1 {
				t.Fatalf("records %v, %v", recs, err)
			}
			if got, _ := recs[0]["refusal_rule"].(string); got != tc.rule {
				t.Errorf("refusal_rule %q, want %q", got, tc.rule)
			}
		})
	}
}
