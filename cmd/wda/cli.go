package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host/hostenv"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/platform/home"
)

// cli is one run of a human command: its streams, its environment, and what it knows
// about the terminal it talks to.
type cli struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	tty    ttyInfo
	// open reads a file named on the command line (os.Open; tests may replace it).
	open func(string) (io.ReadCloser, error)
	// interrupts: Ctrl-C cancels the call in flight (the real process only; tests
	// cancel through ctx).
	interrupts bool
	// getwd is the current folder, where the search for the project starts
	// (os.Getwd; tests may replace it).
	getwd func() (string, error)
}

func newCLI(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) *cli {
	return &cli{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv,
		tty: detectTTY(stdin, stderr), open: func(name string) (io.ReadCloser, error) { return os.Open(name) }, getwd: os.Getwd}
}

// Exit codes of the human commands (docs/cli.md, "Exit codes").
const (
	exitOK          = 0
	exitNotDone     = 1 // the tool answered, but what was asked did not happen
	exitUsage       = 2 // the command line (or its JSON) could not be used
	exitInterrupted = 130
)

// sessionFlags are the flags every tool-backed command takes.
type sessionFlags struct {
	json    bool
	project string
	dataDir string
}

// client is a connection to the in-process server, with the progress line of the
// call in flight.
type client struct {
	c     *cli
	cs    *mcp.ClientSession
	close func()
	// project is the session's project as configured (--project, the variable, or the
	// folder found upward from the current one).
	project string

	progress *progressLine // nil when stderr is not a terminal
	mu       sync.Mutex
	token    string // progress token of the call in flight
	next     atomic.Int64
}

// connect opens a session of the generic host with the command's project and data
// directory.
func (c *cli) connect(f sessionFlags) (*client, error) {
	s, err := newSession("generic", config.Flags{ProjectDir: c.projectDir(f), DataDir: f.dataDir}, c.getenv)
	if err != nil {
		return nil, err
	}
	k := &client{c: c, project: s.cfg.ProjectDir}
	if c.tty.live {
		k.progress = newProgressLine(c.stderr, c.tty.width)
	}
	opts := &mcp.ClientOptions{ProgressNotificationHandler: k.onProgress}
	cs, closeFn, err := connectClient(c.ctx, s, opts)
	if err != nil {
		return nil, err
	}
	k.cs, k.close = cs, closeFn
	return k, nil
}

// projectDir is the command's project when neither --project nor
// WINDOWS_DEV_AGENT_PROJECT_DIR names one: the nearest folder from the current one
// upward with a project marker (docs/cli.md, "The project"). When that is not the
// current folder, one line on stderr says which folder was chosen and why. "" leaves
// the choice to the session (the flag, the variable, or the current folder).
func (c *cli) projectDir(f sessionFlags) string {
	if f.project != "" || hostenv.Var(c.getenv, config.ProjectDirVar) != "" || c.getwd == nil {
		return f.project
	}
	wd, err := c.getwd()
	if err != nil {
		return ""
	}
	root, marker := findProjectRoot(wd, home.Dir(c.getenv), dirNames)
	if marker == "" || samePath(root, filepath.Clean(wd)) {
		return ""
	}
	fmt.Fprintf(c.stderr, "wda: project %s (the nearest folder up from here with %s; --project DIR chooses another)\n", root, marker)
	return root
}

func (k *client) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if k.progress == nil || req.Params == nil {
		return
	}
	k.mu.Lock()
	current := k.token
	k.mu.Unlock()
	if tok, ok := req.Params.ProgressToken.(string); !ok || tok != current {
		return // a late notification of an earlier call
	}
	k.progress.update(req.Params.Message)
}

// newView is where a tool command's result is shown, with what its next steps need:
// the call's arguments, the project, and the session flags the person gave.
func (c *cli) newView(k *client, tc *toolCommand, p *parsed) *view {
	return &view{w: c.stdout, tool: tc.tool, args: p.args, sc: stepContext{project: k.project, session: p.session}, explain: p.explain}
}

// errInterrupted is a call the user stopped with Ctrl-C.
var errInterrupted = errors.New("interrupted")

// call runs one tool. While it runs, a terminal shows a progress line labelled label.
func (k *client) call(label, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	ctx := k.c.ctx
	if k.c.interrupts {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt)
		defer stop()
	}
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	if k.progress != nil {
		tok := fmt.Sprintf("wda-cli-%d", k.next.Add(1))
		params.SetProgressToken(tok)
		k.mu.Lock()
		k.token = tok
		k.mu.Unlock()
		k.progress.begin(label)
		defer k.progress.end()
	}
	res, err := k.cs.CallTool(ctx, params)
	if err != nil && ctx.Err() != nil {
		return nil, errInterrupted
	}
	return res, err
}

// structured returns the result's structured content as a map.
func structured(res *mcp.CallToolResult) map[string]any {
	if res == nil {
		return nil
	}
	if m, ok := res.StructuredContent.(map[string]any); ok {
		return m
	}
	var m map[string]any
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok && json.Unmarshal([]byte(tc.Text), &m) == nil {
			return m
		}
	}
	return nil
}

// printJSON prints a result as the tool's JSON, in the tool's field order: the text an
// MCP client gets (compact, as the server sends it). A refusal's text is its message,
// so then the structured content is printed instead.
func printJSON(w io.Writer, res *mcp.CallToolResult) {
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok && strings.HasPrefix(tc.Text, "{") && json.Valid([]byte(tc.Text)) {
			fmt.Fprintln(w, tc.Text)
			return
		}
	}
	if out := structured(res); out != nil {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return
	}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			fmt.Fprintln(w, tc.Text)
		}
	}
}

// doneStatuses are the statuses of a call that did what was asked. Every other status
// (a refusal, a failure, an unavailable tool, a cancelled or unknown outcome) exits 1,
// so a script never mistakes "nothing ran" for success (docs/cli.md, "Exit codes").
var doneStatuses = map[string]bool{
	"ok": true, "degraded": true, "completed": true, "planned": true, "launched": true,
	"issues_found": true,
}

func exitFor(out map[string]any) int {
	if s, _ := out["status"].(string); doneStatuses[s] {
		return exitOK
	}
	return exitNotDone
}

// fail prints a wda error to stderr.
func (c *cli) fail(code int, format string, a ...any) int {
	fmt.Fprintf(c.stderr, "wda: "+format+"\n", a...)
	return code
}

// callFailed reports a call that ended without a result.
func (c *cli) callFailed(tool string, err error) int {
	if errors.Is(err, errInterrupted) {
		return c.fail(exitInterrupted, "%s: interrupted; the running process tree was stopped", tool)
	}
	return c.fail(exitNotDone, "%s: %v", tool, err)
}
