package gemini_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/host/gemini"
	"github.com/windows-dev-agent/wda/host/hostenv"
	"github.com/windows-dev-agent/wda/host/internal/hosttest"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

// serve starts the adapter as cmd/wda does: the workspace from
// WINDOWS_DEV_AGENT_PROJECT_DIR, read through hostenv.
func serve(t *testing.T, env map[string]string) *hosttest.Session {
	t.Helper()
	getenv := hosttest.Env(env)
	return hosttest.Open(t, hosttest.Registry(), runtime.Options{
		Host:    gemini.New(hostenv.Var(getenv, "WINDOWS_DEV_AGENT_PROJECT_DIR"), getenv),
		DataDir: t.TempDir(), ProjectDir: "/unbound", Audit: hosttest.NoAudit{},
	})
}

func TestBindInsideTheWorkspace(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(ws, "src"), outside, base + "/ws-other"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	realWS, _ := filepath.EvalSymlinks(ws)
	refusal := "cwd must stay inside " + gemini.Label + ": " + realWS
	s := serve(t, map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": ws})
	cases := []struct {
		name string
		cwd  any
		want string // bound directory, or the refusal
		ok   bool
	}{
		{"absent", nil, realWS, true},
		{"relative", "src", filepath.Join(realWS, "src"), true},
		{"absolute inside", filepath.Join(ws, "src"), filepath.Join(realWS, "src"), true},
		{"../ escape", filepath.Join("..", "outside"), refusal, false},
		{"absolute outside", outside, refusal, false},
		{"sibling with the same prefix", base + "/ws-other", refusal, false},
	}
	for _, c := range cases {
		args := map[string]any{}
		if c.cwd != nil {
			args["cwd"] = c.cwd
		}
		got := s.Call(t, "scoped", args)
		if c.ok {
			if got["status"] != "ok" || got["cwd"] != c.want || got["host"] != "gemini" {
				t.Errorf("%s: got %v, want %s", c.name, got, c.want)
			}
			continue
		}
		want := map[string]any{"status": "invalid_input", "error": c.want, "execution_started": false}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

// A workspace the host did not give, or left as a literal ${workspacePath}, refuses
// project-scoped calls instead of falling back to the server's own directory.
func TestNoWorkspaceRefuses(t *testing.T) {
	t.Parallel()
	for _, env := range []map[string]string{{}, {"WINDOWS_DEV_AGENT_PROJECT_DIR": "${workspacePath}"}, {"WINDOWS_DEV_AGENT_PROJECT_DIR": " "}} {
		got := serve(t, env).Call(t, "scoped", map[string]any{})
		if got["status"] != "invalid_input" || got["error"] != gemini.MsgNoProject {
			t.Errorf("%v: got %v", env, got)
		}
	}
}

func TestAdapterSurface(t *testing.T) {
	t.Parallel()
	h := gemini.New("", nil)
	if h.Name() != "gemini" || h.Instructions() != "" {
		t.Fatalf("name %q instructions %q", h.Name(), h.Instructions())
	}
	for _, tool := range tools.Default().Tools() {
		if s := schema.In(tool); h.AdvertisedSchema(tool, s) != s {
			t.Errorf("%s: the shared schema must be advertised unchanged", tool.Name())
		}
	}
}
