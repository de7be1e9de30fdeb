package hostcheck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/gen/release"
	"github.com/windows-dev-agent/wda/tools"
)

// geminiSession is one Gemini CLI home with the extension installed, working in its
// own project folder (trusted through the environment, as a headless run needs).
type geminiSession struct {
	e             *Env
	home, project string
}

func (s *geminiSession) env(extra ...string) []string {
	return s.e.clientEnv(s.home, append([]string{"CI=1", "GEMINI_CLI_TRUST_WORKSPACE=true", "GEMINI_API_KEY=stand-in"}, extra...)...)
}

func (s *geminiSession) gemini(ctx context.Context, extra []string, args ...string) receipt {
	return s.e.client(ctx, Gemini, s.project, s.env(extra...), args...)
}

// prompt runs one headless turn under --yolo against a loopback model that calls the
// tool with args. Under --yolo only the extension's policy can still stop a call.
func (s *geminiSession) prompt(ctx context.Context, tool string, args map[string]any) (*toolCaller, receipt, error) {
	return s.promptTool(ctx, "mcp_"+wda.ServerName+"_"+tool, args)
}

// promptTool is prompt for a tool by its full name (Gemini's own tools have no prefix).
func (s *geminiSession) promptTool(ctx context.Context, tool string, args map[string]any) (*toolCaller, receipt, error) {
	caller := newToolCaller("^"+regexp.QuoteMeta(tool)+"$", args)
	model, err := serve(geminiModel(caller))
	if err != nil {
		return nil, receipt{}, err
	}
	defer func() { _ = model.Close() }() // the turn is over; its results are in hand
	r := s.gemini(ctx, []string{"GOOGLE_GEMINI_BASE_URL=" + model.URL}, "-p", "use the tool", "--yolo")
	if caller.Called() == "" {
		if err := r.err(); err != nil {
			return caller, r, err
		}
		return caller, r, fmt.Errorf("the client offered no tool %s; output: %s", tool, tail(r.output()))
	}
	return caller, r, nil
}

func (e *Env) geminiGroup() Group {
	s := &geminiSession{e: e}
	var ext string
	ran := func(ctx context.Context, tool string, args map[string]any) (map[string]any, error) {
		c, r, err := s.prompt(ctx, tool, args)
		if err != nil {
			return nil, err
		}
		m := structured(c.Result())
		if m == nil {
			return nil, fmt.Errorf("%s %v did not run: %s", tool, args, tail(c.Result()+" "+r.output()))
		}
		return m, nil
	}
	gated := func(ctx context.Context, tool string, args map[string]any) error {
		c, r, err := s.prompt(ctx, tool, args)
		if err != nil {
			return err
		}
		if structured(c.Result())["status"] != nil || !strings.Contains(r.output()+c.Result(), "requires user confirmation") {
			return fmt.Errorf("%s %v was not stopped for confirmation: %s", tool, args, tail(c.Result()+" "+r.output()))
		}
		return nil
	}
	return Group{Name: "gemini (gemini-cli " + Gemini.Version + ")", Checks: []Check{
		{Name: "extensions validate gemini/ of the release", Run: func(ctx context.Context) error {
			var err error
			if s.home, err = e.home("gemini"); err != nil {
				return err
			}
			// An API key selects the Gemini API; its base URL is the loopback model.
			settings := filepath.Join(s.home, ".gemini", "settings.json")
			if err := writeFile(settings, []byte(`{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false}}`), 0o644); err != nil {
				return err
			}
			s.project = filepath.Join(e.work, "gemini-project")
			if err := os.MkdirAll(s.project, 0o755); err != nil {
				return err
			}
			ext = filepath.Join(e.release, release.GeminiDir)
			r := s.gemini(ctx, nil, "extensions", "validate", ext)
			if err := r.err(); err != nil {
				return err
			}
			if !strings.Contains(r.output(), "successfully validated") {
				return fmt.Errorf("validate said: %s", tail(r.output()))
			}
			return nil
		}},
		{Name: "extensions install", Run: func(ctx context.Context) error {
			return s.gemini(ctx, nil, "extensions", "install", ext, "--consent").err()
		}},
		{Name: "extensions list: the server, GEMINI.md and the skills", Run: func(ctx context.Context) error {
			r := s.gemini(ctx, nil, "extensions", "list")
			if err := r.err(); err != nil {
				return err
			}
			out := r.output()
			for _, want := range []string{wda.ServerName + " (" + e.manifest.Version + ")", "GEMINI.md", "env-inspect"} {
				if !strings.Contains(out, want) {
					return fmt.Errorf("list lacks %q: %s", want, tail(out))
				}
			}
			return nil
		}},
		{Name: "mcp list connects the server", Run: func(ctx context.Context) error {
			r := s.gemini(ctx, nil, "mcp", "list")
			if err := r.err(); err != nil {
				return err
			}
			for _, line := range strings.Split(r.output(), "\n") {
				if strings.Contains(line, wda.ServerName) && strings.Contains(line, "--host gemini") && strings.Contains(line, "Connected") {
					return nil
				}
			}
			return fmt.Errorf("not connected: %s", tail(r.output()))
		}},
		{Name: "the model is offered the tools and env_inspect runs", Run: func(ctx context.Context) error {
			c, _, err := s.prompt(ctx, "env_inspect", map[string]any{})
			if err != nil {
				return err
			}
			for _, t := range tools.Default().Tools() {
				// Without --yolo a tool the policy gates is not even declared; with it,
				// every tool is.
				if !c.Offered("mcp_" + wda.ServerName + "_" + t.Name()) {
					return fmt.Errorf("%s was not offered", t.Name())
				}
			}
			if st := structured(c.Result())["status"]; st != "ok" && st != "degraded" {
				return fmt.Errorf("env_inspect result %s", tail(c.Result()))
			}
			return nil
		}},
		{Name: "workflow_plan is bound to the workspace", Independent: true, Run: func(ctx context.Context) error {
			m, err := ran(ctx, "workflow_plan", map[string]any{"task": "run the go tests"})
			if err != nil {
				return err
			}
			if m["status"] == "invalid_input" {
				return fmt.Errorf("workflow_plan in the workspace: %v", m)
			}
			m, err = ran(ctx, "workflow_plan", map[string]any{"task": "run the go tests", "cwd": e.work})
			if err != nil {
				return err
			}
			if m["status"] != "invalid_input" || !strings.Contains(fmt.Sprint(m["error"]), "inside") {
				return fmt.Errorf("a path outside the workspace was not refused: %v", m)
			}
			return nil
		}},
		{Name: "policy: a package_install plan runs under --yolo", Independent: true, Run: func(ctx context.Context) error {
			_, err := ran(ctx, "package_install", map[string]any{"package_id": "Git.Git", "execute": false})
			return err
		}},
		{Name: "policy: package_install execute:true asks, even under --yolo", Independent: true, Run: func(ctx context.Context) error {
			return gated(ctx, "package_install", map[string]any{"package_id": "Git.Git", "execute": true})
		}},
		{Name: "policy: tool_discover always asks", Independent: true, Run: func(ctx context.Context) error {
			return gated(ctx, "tool_discover", map[string]any{})
		}},
		{Name: "policy: capability_run of a reversible capability is not asked", Independent: true, Run: func(ctx context.Context) error {
			_, err := ran(ctx, "capability_run", map[string]any{"capability": "test-go", "execute": true})
			return err
		}},
		{Name: "policy: capability_run of an unknown capability asks", Independent: true, Run: func(ctx context.Context) error {
			return gated(ctx, "capability_run", map[string]any{"capability": "test-go2", "execute": true})
		}},
		{Name: "policy: capability_run with extra_args asks", Independent: true, Run: func(ctx context.Context) error {
			return gated(ctx, "capability_run", map[string]any{"capability": "test-go", "execute": true, "extra_args": []any{"-v"}})
		}},
		{Name: "policy: mcp_audit of an explicit config path asks", Independent: true, Run: func(ctx context.Context) error {
			return gated(ctx, "mcp_audit", map[string]any{"config_path": "x.json"})
		}},
		{Name: "policy: the shell tool's format C: is denied, even under --yolo", Independent: true, Run: func(ctx context.Context) error {
			c, r, err := s.promptTool(ctx, gen.GeminiShellTool, map[string]any{"command": "format C: /q", "description": "d"})
			if err != nil {
				return err
			}
			out := c.Result() + " " + r.output()
			if !strings.Contains(strings.ToLower(out), "denied by policy") {
				return fmt.Errorf("format C: was not denied by the policy: %s", tail(out))
			}
			return nil
		}},
		{Name: "policy: the shell tool's echo runs under --yolo", Independent: true, Run: func(ctx context.Context) error {
			c, r, err := s.promptTool(ctx, gen.GeminiShellTool, map[string]any{"command": "echo wda-shell-ok", "description": "d"})
			if err != nil {
				return err
			}
			if !strings.Contains(c.Result(), "wda-shell-ok") {
				return fmt.Errorf("echo did not run: %s", tail(c.Result()+" "+r.output()))
			}
			return nil
		}},
	}}
}
