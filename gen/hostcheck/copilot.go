package hostcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/gen/release"
	"github.com/windows-dev-agent/wda/host/claude"
	"github.com/windows-dev-agent/wda/host/copilot"
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

// env is the session's environment; CI=1 keeps the CLI from prompting.
func (s *copilotSession) env(extra ...string) []string {
	return s.e.clientEnv(s.home, append([]string{"CI=1"}, extra...)...)
}

func (s *copilotSession) copilot(ctx context.Context, extra []string, args ...string) receipt {
	return s.e.client(ctx, Copilot, s.project, s.env(extra...), args...)
}

// install installs a plugin folder of the release by its path, as VS Code users and
// scripts do (Copilot 1.0.102 installs it and warns that path installs are deprecated;
// the marketplace checks below install by plugin@marketplace).
func (s *copilotSession) install(ctx context.Context, dir string) error {
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
func (s *copilotSession) prompt(ctx context.Context, tool string, args map[string]any, allow ...string) (*toolCaller, error) {
	caller := newToolCaller("^"+tool+"$", args)
	model, err := serve(openAIModel(caller))
	if err != nil {
		return nil, err
	}
	defer func() { _ = model.Close() }() // the turn is over; its results are in hand
	cli := []string{"-p", "use the tool", "--no-auto-update", "--disable-builtin-mcps"}
	for _, a := range allow {
		cli = append(cli, "--allow-tool="+a)
	}
	r := s.copilot(ctx, []string{"COPILOT_PROVIDER_BASE_URL=" + model.URL + "/v1", "COPILOT_MODEL=gpt-4.1",
		"COPILOT_PROVIDER_API_KEY=stand-in"}, cli...)
	if err := r.err(); err != nil {
		return caller, err
	}
	if caller.Called() == "" {
		return caller, fmt.Errorf("the client offered no tool named %s; output: %s", tool, tail(r.output()))
	}
	return caller, nil
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

// previewStatus is the first status field of a JSON text cut short.
var previewStatus = regexp.MustCompile(`"status":\s*"([a-z_]+)"`)

// resultStatus is the status wda returned in a tool result: from the whole object, or,
// when the client relayed only the start of a large result (the Copilot CLI keeps a
// result over its size limit in a file and shows the model a "Preview (first 500
// chars)"), from that preview.
func resultStatus(result string) string {
	if st, ok := structured(result)["status"].(string); ok {
		return st
	}
	if m := previewStatus.FindStringSubmatch(result); m != nil && strings.Contains(result, "Preview") {
		return m[1]
	}
	return ""
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

// installed is the folder the Copilot CLI copied the plugin into, as its config.json
// records it (a plugin installed from a path goes to installed-plugins/_direct/<the
// source folder's name>, one from a marketplace to installed-plugins/<marketplace>/<name>).
func (s *copilotSession) installed() (string, error) {
	raw, err := os.ReadFile(filepath.Join(s.home, ".copilot", "config.json"))
	if err != nil {
		return "", err
	}
	plugins, err := copilot.InstalledPlugins(raw)
	if err != nil {
		return "", fmt.Errorf("~/.copilot/config.json: %v", err)
	}
	for _, p := range plugins {
		if p.Name == pluginName && p.CachePath != "" {
			return p.CachePath, nil
		}
	}
	return "", fmt.Errorf("~/.copilot/config.json lists no installed %s: %s", pluginName, tail(string(raw)))
}

// sameAsRelease checks the installed plugin folder is the release's dir, byte for byte.
func (s *copilotSession) sameAsRelease(dir string) error {
	installed, err := s.installed()
	if err != nil {
		return err
	}
	return sameTree(installed, filepath.Join(s.e.release, dir), true)
}

func (e *Env) agentPluginGroup() Group {
	var s *copilotSession
	return Group{Name: "agent-plugin (copilot " + Copilot.Version + ")", Checks: []Check{
		{Name: "plugin install agent-plugin/ of the release, and list", Run: func(ctx context.Context) error {
			var err error
			if s, err = e.newCopilotSession("copilot"); err != nil {
				return err
			}
			return s.install(ctx, filepath.Join(e.release, release.AgentPluginDir))
		}},
		{Name: "the installed plugin is agent-plugin/ of the release, byte for byte", Run: func(context.Context) error {
			return s.sameAsRelease(release.AgentPluginDir)
		}},
		{Name: "mcp get: the installed plugin's bin/wda, --host copilot", Run: func(ctx context.Context) error {
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
			installed, err := s.installed()
			if err != nil {
				return err
			}
			// sourcePluginSpec: Copilot read the package as Agent Plugins 1.0, not as a
			// Claude-format plugin.
			if filepath.Clean(cfg.Command) != filepath.Join(installed, "bin", "wda") ||
				strings.Join(cfg.Args, " ") != "mcp --host copilot" || !cfg.SourcePluginSpec {
				return fmt.Errorf("server %+v, want %s", cfg, filepath.Join(installed, "bin", "wda"))
			}
			return nil
		}},
		{Name: "the model is offered the tools and env_inspect runs", Run: func(ctx context.Context) error {
			c, err := s.prompt(ctx, copilotTool("env_inspect"), map[string]any{}, wda.ServerName)
			if err != nil {
				return err
			}
			for _, t := range tools.Default().Tools() {
				if !c.Offered(copilotTool(t.Name())) {
					return fmt.Errorf("%s was not offered", copilotTool(t.Name()))
				}
			}
			if st := resultStatus(c.Result()); st != "ok" && st != "degraded" {
				return fmt.Errorf("env_inspect result %q", tail(c.Result()))
			}
			return nil
		}},
		{Name: "preToolUse asks before tool_discover (no one to approve under -p)", Independent: true, Run: func(ctx context.Context) error {
			c, err := s.prompt(ctx, copilotTool("tool_discover"), map[string]any{}, wda.ServerName)
			if err != nil {
				return err
			}
			if !strings.Contains(c.Result(), "Denied by preToolUse hook") || structured(c.Result())["status"] != nil {
				return fmt.Errorf("tool_discover was not stopped by the hook: %s", tail(c.Result()))
			}
			return nil
		}},
		{Name: "workflow_plan runs for the session directory", Independent: true, Run: func(ctx context.Context) error {
			c, err := s.prompt(ctx, copilotTool("workflow_plan"), map[string]any{"task": "run the go tests", "cwd": s.project}, wda.ServerName)
			if err != nil {
				return err
			}
			if st := resultStatus(c.Result()); st == "" || st == "invalid_input" {
				return fmt.Errorf("workflow_plan inside the project: %s", tail(c.Result()))
			}
			return nil
		}},
		{Name: "preToolUse denies workflow_plan outside the session directory", Independent: true, Run: func(ctx context.Context) error {
			c, err := s.prompt(ctx, copilotTool("workflow_plan"), map[string]any{"task": "run the go tests", "cwd": e.work}, wda.ServerName)
			if err != nil {
				return err
			}
			if !strings.Contains(c.Result(), "Denied by preToolUse hook") || !strings.Contains(c.Result(), "project-scope") {
				return fmt.Errorf("an outside project was not denied: %s", tail(c.Result()))
			}
			return nil
		}},
		{Name: "server and hook write one audit log", Independent: true, Run: func(context.Context) error {
			return sharedAuditLog(filepath.Join(s.home, ".copilot", "plugin-data"), "copilot")
		}},
		{Name: "nothing was written inside the installed plugin folder", Independent: true, Run: func(context.Context) error {
			return s.sameAsRelease(release.AgentPluginDir)
		}},
		{Name: "the Claude plugin folder leaves the project unbound", Independent: true, Run: func(ctx context.Context) error {
			return e.copilotLoadsClaude(ctx)
		}},
		{Name: "the distribution's marketplace installs agent-plugin/, not claude/", Independent: true, Run: func(ctx context.Context) error {
			return e.copilotMarketplace(ctx)
		}},
		{Name: "main's index (release index) installs agent-plugin/ of the distribution commit from windows-dev-agent/wda", Independent: true, Run: func(ctx context.Context) error {
			return e.copilotIndex(ctx)
		}},
	}}
}

// copilotLoadsClaude installs the release's claude/ into a fresh Copilot home: Copilot
// reads .claude-plugin/plugin.json too but leaves ${CLAUDE_PROJECT_DIR} unexpanded, and
// a project-scoped call must then be refused, never bound to the plugin folder.
func (e *Env) copilotLoadsClaude(ctx context.Context) error {
	s, err := e.newCopilotSession("copilot-claude")
	if err != nil {
		return err
	}
	if err := s.install(ctx, filepath.Join(e.release, release.ClaudeDir)); err != nil {
		return err
	}
	c, err := s.prompt(ctx, copilotTool("workflow_plan"), map[string]any{"task": "run the go tests"}, wda.ServerName)
	if err != nil {
		return err
	}
	m := structured(c.Result())
	if m["status"] != "invalid_input" || m["error"] != claude.MsgNoProject {
		return fmt.Errorf("workflow_plan under the Claude payload: %s", tail(c.Result()))
	}
	return nil
}

// copilotMarketplace adds the distribution as a local marketplace: Copilot must pick
// .github/plugin/marketplace.json (agent-plugin/) over the Claude one. A local
// marketplace is read in place and mcp get starts nothing, so the distribution is
// neither copied nor written.
func (e *Env) copilotMarketplace(ctx context.Context) error {
	s, err := e.newCopilotSession("copilot-marketplace")
	if err != nil {
		return err
	}
	if err := s.copilot(ctx, nil, "plugin", "marketplace", "add", e.release).err(); err != nil {
		return err
	}
	if err := s.copilot(ctx, nil, "plugin", "install", pluginID).err(); err != nil {
		return err
	}
	return s.serverIn(ctx, filepath.Join(e.release, release.AgentPluginDir))
}

// serverIn checks that mcp get starts dir's bin/wda for the Copilot host.
func (s *copilotSession) serverIn(ctx context.Context, dir string) error {
	r := s.copilot(ctx, nil, "mcp", "get", wda.ServerName, "--json")
	if err := r.err(); err != nil {
		return err
	}
	if want := filepath.Join(dir, "bin", "wda"); !strings.Contains(r.Stdout, jsonString(want)) || !strings.Contains(r.Stdout, `"copilot"`) {
		return fmt.Errorf("mcp get does not start %s: %s", want, tail(r.Stdout))
	}
	return nil
}

// copilotIndex proves the README's `copilot plugin marketplace add
// windows-dev-agent/wda` offline: a bare repository stands in for the published one
// (main holding what `release index` renders for the distribution commit, and the tag
// dist/v<version> on that commit), and a git insteadOf rule in the session's home
// points the public URL at it. Copilot clones main, reads its
// .github/plugin/marketplace.json and fetches agent-plugin/ of exactly that commit.
func (e *Env) copilotIndex(ctx context.Context) error {
	published := filepath.Join(e.work, "published.git")
	index, err := e.publishLocally(ctx, published)
	if err != nil {
		return err
	}
	s, err := e.newCopilotSession("copilot-index")
	if err != nil {
		return err
	}
	gitconfig := "[url \"file://" + filepath.ToSlash(published) + "\"]\n\tinsteadOf = " + release.Repository + "\n"
	if err := writeFile(filepath.Join(s.home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		return err
	}
	owner := strings.TrimSuffix(strings.TrimPrefix(release.Repository, "https://github.com/"), ".git")
	if err := s.copilot(ctx, nil, "plugin", "marketplace", "add", owner).err(); err != nil {
		return err
	}
	if err := s.copilot(ctx, nil, "plugin", "install", pluginID).err(); err != nil {
		return err
	}
	if err := s.sameAsRelease(release.AgentPluginDir); err != nil {
		return fmt.Errorf("%s pins %s: %w", release.CopilotMarketplacePath, index, err)
	}
	installed, err := s.installed()
	if err != nil {
		return err
	}
	return s.serverIn(ctx, installed)
}

// publishLocally makes a bare repository laid out as the published one: the
// distribution commit under its tag, and a main branch holding only the marketplace
// files `release index` renders for it. It returns the distribution commit.
func (e *Env) publishLocally(ctx context.Context, bare string) (string, error) {
	g, err := release.NewGit(e.release)
	if err != nil {
		return "", err
	}
	g.Runner = e.runner
	// No system or user configuration, and a fixed identity for main's one commit.
	g.Env = setEnv(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=hostcheck", "GIT_AUTHOR_EMAIL=hostcheck@windows-dev-agent.invalid",
		"GIT_COMMITTER_NAME=hostcheck", "GIT_COMMITTER_EMAIL=hostcheck@windows-dev-agent.invalid")
	head, err := g.Run(ctx, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return "", err
	}
	commit := strings.TrimSpace(head)
	files, err := release.Index(commit, e.manifest)
	if err != nil {
		return "", err
	}
	if _, err := g.In(e.work).Run(ctx, "init", "-q", "--bare", "--initial-branch=main", bare); err != nil {
		return "", err
	}
	tag := "refs/tags/" + e.manifest.Tag()
	if _, err := g.Run(ctx, "push", "-q", bare, tag+":"+tag); err != nil {
		return "", err
	}
	main := filepath.Join(e.work, "published-main")
	for _, p := range release.IndexPaths {
		if err := writeFile(filepath.Join(main, filepath.FromSlash(p)), files[p], 0o644); err != nil {
			return "", err
		}
	}
	m := g.In(main)
	for _, args := range [][]string{{"init", "-q", "--initial-branch=main"}, {"add", "-A"},
		{"commit", "-q", "--no-gpg-sign", "-m", "release index"}, {"push", "-q", bare, "main:main"}} {
		if _, err := m.Run(ctx, args...); err != nil {
			return "", err
		}
	}
	return commit, nil
}

// jsonString is s as it appears inside a JSON document.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
