package hostcheck

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/gen/release"
	"github.com/windows-dev-agent/wda/host/codex"
)

// codexSession is one Codex home with the release installed. CODEX_HOME is not
// $HOME/.codex on purpose: the server sees CODEX_HOME only through env_vars, so a
// shared audit log proves the variable reached it.
type codexSession struct {
	e         *Env
	home      string
	codexHome string
	project   string
}

func (s *codexSession) env(extra ...string) []string {
	return s.e.clientEnv(s.home, append([]string{"CODEX_HOME=" + s.codexHome}, extra...)...)
}

func (s *codexSession) codex(ctx context.Context, timeout time.Duration, extra []string, args ...string) receipt {
	return s.e.clientFor(ctx, Codex, s.project, s.env(extra...), timeout, args...)
}

func (s *codexSession) installed() string {
	return filepath.Join(s.codexHome, "plugins", "cache", marketplaceName, pluginName, s.e.manifest.Version)
}

// codexMCPServer is one entry of `codex mcp list --json`.
type codexMCPServer struct {
	Name      string `json:"name"`
	Transport struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
		EnvVars []string `json:"env_vars"`
		Cwd     string   `json:"cwd"`
	} `json:"transport"`
}

func parseMCPList(out string) (*codexMCPServer, error) {
	var list []codexMCPServer
	if i := strings.Index(out, "["); i < 0 || json.Unmarshal([]byte(out[i:]), &list) != nil {
		return nil, fmt.Errorf("mcp list --json: %s", tail(out))
	}
	for i := range list {
		if list[i].Name == "windows_dev_agent" {
			return &list[i], nil
		}
	}
	return nil, fmt.Errorf("mcp list shows no windows_dev_agent: %s", tail(out))
}

func (e *Env) codexGroup() Group {
	s := &codexSession{e: e}
	var tr *codexTranscript
	var sc *script
	return Group{Name: "codex " + Codex.Version, Checks: []Check{
		{Name: "plugin marketplace add dist/release; plugin add " + pluginID, Run: func(ctx context.Context) error {
			var err error
			if s.home, err = e.home("codex"); err != nil {
				return err
			}
			s.codexHome = filepath.Join(s.home, "codex home")
			s.project = filepath.Join(e.work, "codex project")
			for _, d := range []string{s.codexHome, s.project} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			for _, args := range [][]string{{"plugin", "marketplace", "add", e.release, "--json"}, {"plugin", "add", pluginID, "--json"}} {
				if err := s.codex(ctx, 5*time.Minute, nil, args...).err(); err != nil {
					return fmt.Errorf("codex %s: %w", strings.Join(args, " "), err)
				}
			}
			return nil
		}},
		{Name: "the installed plugin is codex/ of the release, byte for byte", Run: func(context.Context) error {
			return sameTree(s.installed(), filepath.Join(e.release, release.CodexDir), true)
		}},
		{Name: "mcp list: ./bin/wda in the installed plugin, env_vars CODEX_HOME and WINDOWS_DEV_AGENT_CATALOG", Independent: true, Run: func(ctx context.Context) error {
			r := s.codex(ctx, 2*time.Minute, nil, "mcp", "list", "--json")
			if err := r.err(); err != nil {
				return err
			}
			srv, err := parseMCPList(r.Stdout)
			if err != nil {
				return err
			}
			t := srv.Transport
			if t.Command != "./bin/wda" || filepath.Clean(t.Cwd) != s.installed() || !slices.Equal(t.EnvVars, gen.CodexEnvVars()) ||
				strings.Join(t.Args, " ") != "mcp --host codex" {
				return fmt.Errorf("server %+v", t)
			}
			return nil
		}},
		{Name: "session (hooks trusted for the run): env_inspect, format C:, an executing capability_run", Run: func(ctx context.Context) error {
			sc = newScript(
				step{Tool: "env_inspect", Namespace: codexNamespace, Input: map[string]any{}},
				step{Tool: "exec_command", Input: map[string]any{"cmd": forbiddenCommand}},
				step{Tool: "capability_run", Namespace: codexNamespace, Input: askedCall(s.project)},
			)
			var err error
			tr, err = e.runCodex(ctx, sc, true, func(ctx context.Context, env []string, args ...string) receipt {
				return s.codex(ctx, 5*time.Minute, env, args...)
			})
			return err
		}},
		{Name: "with the hooks running, no notice that they are not", Independent: true, Run: func(context.Context) error {
			for _, r := range tr.results("env_inspect") {
				if strings.Contains(r, codex.HooksInactiveNotice) {
					return fmt.Errorf("env_inspect said the hooks are not running in a session that ran them: %s", tail(r))
				}
			}
			return nil
		}},
		{Name: "session without trusted hooks: the first result says the hooks are not running, once", Run: func(ctx context.Context) error {
			plain := newScript(
				step{Tool: "env_inspect", Namespace: codexNamespace, Input: map[string]any{}},
				step{Tool: "env_inspect", Namespace: codexNamespace, Input: map[string]any{}},
			)
			untrusted, err := e.runCodex(ctx, plain, false, func(ctx context.Context, env []string, args ...string) receipt {
				return s.codex(ctx, 5*time.Minute, env, args...)
			})
			if err != nil {
				return err
			}
			rs := untrusted.results("env_inspect")
			if len(rs) != 2 {
				return fmt.Errorf("%d env_inspect results, want 2", len(rs))
			}
			if !strings.HasPrefix(rs[0], codex.HooksInactiveNotice) {
				return fmt.Errorf("the first result has no notice: %s", tail(rs[0]))
			}
			if strings.Contains(rs[1], codex.HooksInactiveNotice) {
				return fmt.Errorf("the notice was repeated: %s", tail(rs[1]))
			}
			return nil
		}},
		{Name: "the model was offered the ten tools", Independent: true, Run: func(context.Context) error {
			return e.offeredAll(sc, nil, codexNamespace+"__")
		}},
		{Name: "env_inspect answers from the shipped wda", Independent: true, Run: func(context.Context) error {
			return envInspectAnswered(tr.envInspectResult(), "")
		}},
		{Name: "PreToolUse blocks format C:", Independent: true, Run: func(context.Context) error {
			return tr.blocked()
		}},
		{Name: "an executing capability_run is asked (and refused: exec never approves)", Independent: true, Run: func(context.Context) error {
			if msg := tr.failure("capability_run"); !strings.Contains(msg, "requires approval") {
				return fmt.Errorf("capability_run was not held for approval: %q", msg)
			}
			return nil
		}},
		{Name: "server and hooks wrote one audit log under $CODEX_HOME", Independent: true, Run: func(context.Context) error {
			return sharedAuditLog(filepath.Join(s.codexHome, "plugins", "data", pluginName), "codex")
		}},
		{Name: "nothing was written inside the installed plugin folder (hook trust survives)", Independent: true, Run: func(context.Context) error {
			return sameTree(s.installed(), filepath.Join(e.release, release.CodexDir), true)
		}},
	}}
}

type codexRunner func(ctx context.Context, env []string, args ...string) receipt

// runCodex runs `codex exec --json` against the scripted model. Plugin hooks run only
// once the user has trusted them (in the TUI's /hooks); exec has no such dialog, so
// with trustHooks the run trusts them with --dangerously-bypass-hook-trust, and
// without it they stay untrusted and do not run, as in a new user's first session.
func (e *Env) runCodex(ctx context.Context, sc *script, trustHooks bool, run codexRunner) (*codexTranscript, error) {
	model, err := serve(responsesModel(sc))
	if err != nil {
		return nil, err
	}
	defer func() { _ = model.Close() }() // the session is over; its results are in hand
	provider := fmt.Sprintf(`model_providers.scripted={name="scripted",base_url="%s/v1",wire_api="responses",env_key="SCRIPTED_KEY",supports_websockets=false}`, model.URL)
	args := []string{"exec", "--skip-git-repo-check", "--json",
		"-c", "model_provider=scripted", "-c", "model=scripted-model", "-c", provider}
	if trustHooks {
		args = append(args, "--dangerously-bypass-hook-trust")
	}
	r := run(ctx, []string{"SCRIPTED_KEY=scripted"}, append(args, "use the tools")...)
	if err := r.err(); err != nil {
		return nil, err
	}
	tr := parseCodex(r.Stdout, r.Stderr)
	if sc.Played() != len(sc.steps) {
		return tr, fmt.Errorf("the session ended after %d of %d scripted calls: %s", sc.Played(), len(sc.steps), tail(r.output()))
	}
	return tr, nil
}

// codexTranscript is what a `codex exec --json` run showed.
type codexTranscript struct {
	items  []codexItem
	stderr string
}

type codexItem struct {
	Type    string `json:"type"`
	Tool    string `json:"tool"`
	Command string `json:"command"`
	Status  string `json:"status"`
	Result  *struct {
		Content []struct{ Text string } `json:"content"`
	} `json:"result"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	ExitCode *int `json:"exit_code"`
}

func parseCodex(stdout, stderr string) *codexTranscript {
	tr := &codexTranscript{stderr: stderr}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev struct {
			Type string    `json:"type"`
			Item codexItem `json:"item"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "item.completed" {
			tr.items = append(tr.items, ev.Item)
		}
	}
	return tr
}

// envInspectResult is the text of the session's env_inspect result, or "" (the one
// call a Codex transcript is checked for).
func (t *codexTranscript) envInspectResult() string {
	for _, it := range t.items {
		if it.Type == "mcp_tool_call" && it.Tool == "env_inspect" && it.Result != nil {
			var b strings.Builder
			for _, c := range it.Result.Content {
				b.WriteString(c.Text)
			}
			return b.String()
		}
	}
	return ""
}

// results are the texts of every result of tool, in order.
func (t *codexTranscript) results(tool string) []string {
	var out []string
	for _, it := range t.items {
		if it.Type == "mcp_tool_call" && it.Tool == tool && it.Result != nil {
			var b strings.Builder
			for _, c := range it.Result.Content {
				b.WriteString(c.Text)
			}
			out = append(out, b.String())
		}
	}
	return out
}

func (t *codexTranscript) failure(tool string) string {
	for _, it := range t.items {
		if it.Type == "mcp_tool_call" && it.Tool == tool && it.Error != nil {
			return it.Error.Message
		}
	}
	return ""
}

// blocked checks the hook blocked forbiddenCommand and it never ran.
func (t *codexTranscript) blocked() error {
	command := forbiddenCommand
	for _, it := range t.items {
		if it.Type == "command_execution" && strings.Contains(it.Command, command) && it.ExitCode != nil {
			return fmt.Errorf("%q ran (exit %d)", it.Command, *it.ExitCode)
		}
	}
	if !strings.Contains(t.stderr, "blocked by PreToolUse hook: "+forbiddenText) {
		return fmt.Errorf("no PreToolUse block of %q in the session's log: %s", command, tail(t.stderr))
	}
	return nil
}
