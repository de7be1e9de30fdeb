package hostcheck

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen/release"
	"github.com/windows-dev-agent/wda/internal/proc"
)

// remoteServer is the release's wda serving Streamable HTTP on loopback with two named
// tokens (docs/remote.md), for the clients' HTTP configurations.
type remoteServer struct {
	url, data, project string
	tokens             map[string]string // name → token
	stop               context.CancelFunc
	done               chan proc.Receipt
}

const remotePrefix = "mcp__wda__" // the tool names of a server added as "wda"

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

func (e *Env) startRemote(ctx context.Context) (*remoteServer, error) {
	dir := filepath.Join(e.work, "remote")
	s := &remoteServer{data: filepath.Join(dir, "data"), project: filepath.Join(dir, "project"),
		tokens: map[string]string{"claude-check": newToken(), "codex-check": newToken()}}
	if err := os.MkdirAll(s.project, 0o755); err != nil {
		return nil, err
	}
	var lines []string
	for n, t := range s.tokens {
		lines = append(lines, n+" "+t)
	}
	tokenFile := filepath.Join(dir, "tokens")
	if err := writeFile(tokenFile, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	_ = ln.Close() // the server takes the port over
	s.url = "http://" + addr + "/mcp"
	sctx, stop := context.WithCancel(ctx)
	s.stop, s.done = stop, make(chan proc.Receipt, 1)
	server := filepath.Join(e.release, release.ClaudeDir, "bin", "wda"+exe())
	go func() {
		s.done <- e.runner.Run(sctx, proc.Request{Argv: []string{server, "serve", "--http", addr, "--root", s.project,
			"--token-file", tokenFile}, Dir: dir, Timeout: 30 * time.Minute, StdoutLimit: 1 << 20, StderrLimit: 1 << 20,
			Env: []string{"PATH=" + e.getenv("PATH"), "HOME=" + dir, "WINDOWS_DEV_AGENT_DATA_DIR=" + s.data}})
	}()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		select {
		case r := <-s.done:
			return nil, fmt.Errorf("wda serve exited: %s", tail(r.Stderr))
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = c.Close()
			return s, nil
		}
		time.Sleep(50 * time.Millisecond) // readiness of a real server, not a test's synchronisation
	}
	s.close()
	return nil, fmt.Errorf("wda serve did not listen on %s", addr)
}

func (s *remoteServer) close() {
	if s != nil && s.stop != nil {
		s.stop()
		<-s.done
		s.stop = nil
	}
}

// callers are the callers of the server's audit records; it fails when a record holds
// a token.
func (s *remoteServer) callers() ([]string, error) {
	b, err := os.ReadFile(filepath.Join(s.data, "agent.log"))
	if err != nil {
		return nil, err
	}
	for _, t := range s.tokens {
		if strings.Contains(string(b), t) {
			return nil, errors.New("the audit log holds a token")
		}
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r struct {
			Caller   string
			ToolName string `json:"tool_name"`
		}
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			out = append(out, r.Caller+":"+r.ToolName)
		}
	}
	return out, nil
}

// remoteGroup proves docs/remote.md with the real clients: Claude Code adds the server
// with `claude mcp add --transport http … --header "Authorization: Bearer …"`, Codex with
// url and bearer_token_env_var; each calls env_inspect with its token, and with a wrong
// token is refused (no wda tool is offered, nothing is recorded).
func (e *Env) remoteGroup() Group {
	var s *remoteServer
	var home string
	claudeRun := func(ctx context.Context, token string, sc *script) (*claudeTranscript, error) {
		var err error
		if home, err = e.home("remote-claude-" + token[:6]); err != nil {
			return nil, err
		}
		env := e.clientEnv(home)
		if r := e.clientFor(ctx, ClaudeCode, s.project, env, 2*time.Minute, "mcp", "add", "-s", "user", "--transport", "http",
			"wda", s.url, "--header", "Authorization: Bearer "+token); r.err() != nil {
			return nil, fmt.Errorf("claude mcp add: %w", r.err())
		}
		return e.runClaude(ctx, sc, func(ctx context.Context, extra []string, args ...string) receipt {
			return e.clientFor(ctx, ClaudeCode, s.project, e.clientEnv(home, extra...), 5*time.Minute, args...)
		}, []string{remotePrefix + "env_inspect"})
	}
	codexRun := func(ctx context.Context, token string, sc *script) (*codexTranscript, error) {
		h, err := e.home("remote-codex-" + token[:4])
		if err != nil {
			return nil, err
		}
		cfg := fmt.Sprintf("[mcp_servers.wda]\nurl = %q\nbearer_token_env_var = \"WDA_TOKEN\"\n", s.url)
		if err := writeFile(filepath.Join(h, ".codex", "config.toml"), []byte(cfg), 0o600); err != nil {
			return nil, err
		}
		return e.runCodex(ctx, sc, false, func(ctx context.Context, extra []string, args ...string) receipt {
			env := e.clientEnv(h, append([]string{"CODEX_HOME=" + filepath.Join(h, ".codex"), "WDA_TOKEN=" + token}, extra...)...)
			return e.clientFor(ctx, Codex, s.project, env, 5*time.Minute, args...)
		})
	}
	envStep := func() *script { return newScript(step{Tool: remotePrefix + "env_inspect", Input: map[string]any{}}) }
	codexStep := func() *script {
		return newScript(step{Tool: "env_inspect", Namespace: "mcp__wda", Input: map[string]any{}})
	}
	return Group{Name: "remote (wda serve --http)", Checks: []Check{
		{Name: "wda serve --http 127.0.0.1 with a token file only its user can read", Run: func(ctx context.Context) error {
			var err error
			s, err = e.startRemote(ctx)
			return err
		}},
		{Name: "claude mcp add --transport http --header Authorization: env_inspect answers", Independent: true, Run: func(ctx context.Context) error {
			sc := envStep()
			tr, err := claudeRun(ctx, s.tokens["claude-check"], sc)
			if err != nil {
				return err
			}
			return envInspectAnswered(tr.result(remotePrefix+"env_inspect"), "")
		}},
		{Name: "claude with a wrong token: refused, no wda tool offered", Independent: true, Run: func(ctx context.Context) error {
			sc := newScript()
			if _, err := claudeRun(ctx, newToken(), sc); err != nil {
				return err
			}
			if sc.Offered(remotePrefix + "env_inspect") {
				return errors.New("a wda tool was offered with a wrong token")
			}
			return nil
		}},
		{Name: "codex url + bearer_token_env_var: env_inspect answers", Independent: true, Run: func(ctx context.Context) error {
			tr, err := codexRun(ctx, s.tokens["codex-check"], codexStep())
			if err != nil {
				return err
			}
			return envInspectAnswered(tr.envInspectResult(), "")
		}},
		{Name: "codex with a wrong token: refused, no wda tool offered", Independent: true, Run: func(ctx context.Context) error {
			sc := newScript()
			if _, err := codexRun(ctx, newToken(), sc); err != nil {
				return err
			}
			if sc.Offered(remotePrefix + "env_inspect") {
				return errors.New("a wda tool was offered with a wrong token")
			}
			return nil
		}},
		{Name: "the audit log names each caller (the token's name), never a token", Independent: true, Run: func(context.Context) error {
			defer s.close()
			got, err := s.callers()
			if err != nil {
				return err
			}
			if strings.Join(got, ",") != "claude-check:env_inspect,codex-check:env_inspect" {
				return fmt.Errorf("audit callers %v, want claude-check then codex-check, one env_inspect each", got)
			}
			return nil
		}},
	}}
}
