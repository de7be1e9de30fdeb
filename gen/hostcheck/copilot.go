package hostcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/host/claude"
	"github.com/windows-dev-agent/wda/host/hook"
	"github.com/windows-dev-agent/wda/tools"
)

// copilotSession is one Copilot CLI home with one plugin installed.
type copilotSession struct {
	e       *Env
	home    string
	project string // the session's working directory
}

func (e *Env) newCopilotSession(name string) (*copilotSession, error) {
	home, err := e.home(name)
	if err != nil {
		return nil, err
	}
	project := filepath.Join(e.work, name+"-project")
	return &copilotSession{e: e, home: home, project: project}, os.MkdirAll(project, 0o755)
}

func (s *copilotSession) env(extra ...string) []string {
	return s.e.clientEnv(s.home, extra...)
}

func (s *copilotSession) copilot(ctx context.Context, extra []string, args ...string) receipt {
	return s.e.client(ctx, Copilot, s.project, s.env(extra...), args...)
}

func (s *copilotSession) install(ctx context.Context, root, name string) error {
	dir, err := s.e.payload(root, name, wda.ServerName)
	if err != nil {
		return err
	}
	if err := s.copilot(ctx, nil, "plugin", "install", dir).err(); err != nil {
		return err
	}
	r := s.copilot(ctx, nil, "plugin", "list", "--json")
	if err := r.err(); err != nil {
		return err
	}
	if !strings.Contains(r.Stdout, `"`+wda.ServerName+`"`) {
		return fmt.Errorf("plugin list does not show %s: %s", wda.ServerName, tail(r.Stdout))
	}
	return nil
}

// prompt runs one non-interactive turn against a loopback model that calls tool with
// args; allow lists the --allow-tool patterns.
func (s *copilotSession) prompt(ctx context.Context, tool string, args map[string]any, allow ...string) (*toolCaller, receipt, error) {
	caller := newToolCaller("^"+tool+"$", args)
	model, err := serve(openAIModel(caller))
	if err != nil {
		return nil, receipt{}, err
	}
	defer model.Close()
	cli := []string{"-p", "use the tool", "--no-auto-update", "--disable-builtin-mcps"}
	for _, a := range allow {
		cli = append(cli, "--allow-tool="+a)
	}
	r := s.copilot(ctx, []string{"COPILOT_PROVIDER_BASE_URL=" + model.URL + "/v1", "COPILOT_MODEL=gpt-4.1",
		"COPILOT_PROVIDER_API_KEY=stand-in"}, cli...)
	if err := r.err(); err != nil {
		return caller, r, err
	}
	if caller.Called() == "" {
		return caller, r, fmt.Errorf("the client offered no tool named %s; output: %s", tool, tail(r.output()))
	}
	return caller, r, nil
}

// structured finds the status object wda returned in a tool result as a client
// relays it: the text itself, or a JSON value (Gemini's {"output": …}) whose strings
// hold it, possibly wrapped in the client's own markup.
func structured(result string) map[string]any {
	for i := strings.Index(result, "{"); i >= 0; {
		var v any
		if json.NewDecoder(strings.NewReader(result[i:])).Decode(&v) == nil {
			if m := statusObject(v); m != nil {
				return m
			}
		}
		next := strings.Index(result[i+1:], "{")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return nil
}

// statusObject is v when it is an object with a status, else the first such object
// in v's string values.
func statusObject(v any) map[string]any {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["status"].(string); ok {
			return x
		}
		for _, e := range x {
			if m := statusObject(e); m != nil {
				return m
			}
		}
	case []any:
		for _, e := range x {
			if m := statusObject(e); m != nil {
				return m
			}
		}
	case string:
		return structured(x)
	}
	return nil
}

func copilotTool(name string) string { return hook.CopilotToolPrefix + name }

func (e *Env) agentPluginGroup() Group {
	var s *copilotSession
	return Group{Name: "agent-plugin (copilot " + Copilot.Version + ")", Checks: []Check{
		{Name: "plugin install and list", Run: func(ctx context.Context) error {
			var err error
			if s, err = e.newCopilotSession("copilot"); err != nil {
				return err
			}
			return s.install(ctx, gen.AgentPluginRoot, "agent-plugin")
		}},
		{Name: "mcp get: the plugin's own binary, --host copilot", Run: func(ctx context.Context) error {
			r := s.copilot(ctx, nil, "mcp", "get", wda.ServerName, "--json")
			if err := r.err(); err != nil {
				return err
			}
			var servers map[string]struct {
				Command          string
				Args             []string
				SourcePluginSpec bool
			}
			i := strings.Index(r.Stdout, "{")
			if i < 0 || json.Unmarshal([]byte(r.Stdout[i:]), &servers) != nil {
				return fmt.Errorf("mcp get printed no JSON: %s", tail(r.Stdout))
			}
			cfg := servers[wda.ServerName]
			// sourcePluginSpec: Copilot read the package as Agent Plugins 1.0, not as a
			// Claude-format plugin.
			if !strings.HasSuffix(filepath.ToSlash(cfg.Command), "/"+wda.ServerName+"/bin/wda") ||
				strings.Join(cfg.Args, " ") != "mcp --host copilot" || !cfg.SourcePluginSpec {
				return fmt.Errorf("server %+v", cfg)
			}
			return nil
		}},
		{Name: "the model is offered the tools and env_inspect runs", Run: func(ctx context.Context) error {
			c, _, err := s.prompt(ctx, copilotTool("env_inspect"), map[string]any{}, wda.ServerName)
			if err != nil {
				return err
			}
			for _, t := range tools.Default().Tools() {
				if !c.Offered(copilotTool(t.Name())) {
					return fmt.Errorf("%s was not offered", copilotTool(t.Name()))
				}
			}
			if st := structured(c.Result())["status"]; st != "ok" && st != "degraded" {
				return fmt.Errorf("env_inspect result %q", tail(c.Result()))
			}
			return nil
		}},
		{Name: "preToolUse asks before tool_discover (no one to approve under -p)", Independent: true, Run: func(ctx context.Context) error {
			c, _, err := s.prompt(ctx, copilotTool("tool_discover"), map[string]any{}, wda.ServerName)
			if err != nil {
				return err
			}
			if !strings.Contains(c.Result(), "Denied by preToolUse hook") || structured(c.Result())["status"] != nil {
				return fmt.Errorf("tool_discover was not stopped by the hook: %s", tail(c.Result()))
			}
			return nil
		}},
		{Name: "workflow_plan runs for the session directory", Independent: true, Run: func(ctx context.Context) error {
			c, _, err := s.prompt(ctx, copilotTool("workflow_plan"), map[string]any{"task": "run the go tests", "cwd": s.project}, wda.ServerName)
			if err != nil {
				return err
			}
			if st := structured(c.Result())["status"]; st == nil || st == "invalid_input" {
				return fmt.Errorf("workflow_plan inside the project: %s", tail(c.Result()))
			}
			return nil
		}},
		{Name: "preToolUse denies workflow_plan outside the session directory", Independent: true, Run: func(ctx context.Context) error {
			c, _, err := s.prompt(ctx, copilotTool("workflow_plan"), map[string]any{"task": "run the go tests", "cwd": e.work}, wda.ServerName)
			if err != nil {
				return err
			}
			if !strings.Contains(c.Result(), "Denied by preToolUse hook") || !strings.Contains(c.Result(), "project-scope") {
				return fmt.Errorf("an outside project was not denied: %s", tail(c.Result()))
			}
			return nil
		}},
		{Name: "server and hook write one audit log", Independent: true, Run: func(context.Context) error {
			return sharedAuditLog(filepath.Join(s.home, ".copilot", "plugin-data"))
		}},
		{Name: "the Claude payload leaves the project unbound", Independent: true, Run: func(ctx context.Context) error {
			return e.copilotLoadsClaude(ctx)
		}},
		{Name: "the repository's marketplace installs the Agent Plugin, not the Claude payload", Independent: true, Run: func(ctx context.Context) error {
			return e.copilotMarketplace(ctx)
		}},
	}}
}

// sharedAuditLog finds the plugin's data folder under root and checks that its one
// audit log holds records of the server (host copilot, a call) and of the hook (a
// PreToolUse decision): both resolved the same data directory.
func sharedAuditLog(root string) error {
	var logs []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "agent.log" {
			logs = append(logs, p)
		}
		return nil
	})
	if len(logs) != 1 {
		return fmt.Errorf("want one audit log under %s, found %v", root, logs)
	}
	f, err := os.Open(logs[0])
	if err != nil {
		return err
	}
	defer f.Close()
	var server, hooked bool
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r struct {
			Host, Event        string
			PermissionDecision string `json:"permission_decision"`
		}
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Host != "copilot" {
			continue
		}
		if r.Event == "PreToolUse" {
			hooked = true
		} else if r.PermissionDecision == "" {
			server = true
		}
	}
	if !server || !hooked {
		return fmt.Errorf("%s: server records %v, hook records %v", logs[0], server, hooked)
	}
	return nil
}

// copilotLoadsClaude installs dist/claude into a fresh Copilot home: Copilot reads
// .claude-plugin/plugin.json too but leaves ${CLAUDE_PROJECT_DIR} unexpanded, and a
// project-scoped call must then be refused, never bound to the plugin folder.
func (e *Env) copilotLoadsClaude(ctx context.Context) error {
	s, err := e.newCopilotSession("copilot-claude")
	if err != nil {
		return err
	}
	if err := s.install(ctx, gen.ClaudeRoot, "claude"); err != nil {
		return err
	}
	c, _, err := s.prompt(ctx, copilotTool("workflow_plan"), map[string]any{"task": "run the go tests"}, wda.ServerName)
	if err != nil {
		return err
	}
	m := structured(c.Result())
	if m["status"] != "invalid_input" || m["error"] != claude.MsgNoProject {
		return fmt.Errorf("workflow_plan under the Claude payload: %s", tail(c.Result()))
	}
	return nil
}

// copilotMarketplace adds the module root as a local marketplace: Copilot must pick
// .github/plugin/marketplace.json (the Agent Plugin payload) over the Claude one. A
// local marketplace is read in place and mcp get starts nothing, so the module is
// neither copied nor written.
func (e *Env) copilotMarketplace(ctx context.Context) error {
	s, err := e.newCopilotSession("copilot-marketplace")
	if err != nil {
		return err
	}
	if err := s.copilot(ctx, nil, "plugin", "marketplace", "add", e.cfg.Module).err(); err != nil {
		return err
	}
	if err := s.copilot(ctx, nil, "plugin", "install", wda.ServerName+"@"+wda.ServerName).err(); err != nil {
		return err
	}
	r := s.copilot(ctx, nil, "mcp", "get", wda.ServerName, "--json")
	if err := r.err(); err != nil {
		return err
	}
	want := filepath.Join(e.cfg.Module, "dist", gen.AgentPluginRoot, "bin", "wda")
	if !strings.Contains(r.Stdout, jsonString(want)) || !strings.Contains(r.Stdout, `"copilot"`) {
		return fmt.Errorf("the marketplace did not install dist/%s: %s", gen.AgentPluginRoot, tail(r.Stdout))
	}
	return nil
}

// jsonString is s as it appears inside a JSON document.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
