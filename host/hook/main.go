package hook

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/tools"
)

// Usage is the command line summary printed on a usage error.
const Usage = `usage: wda hook claude pre-tool-use|post-tool-use|post-tool-use-failure|stop [--data-dir DIR] [--session-id ID]
       wda hook codex pre-tool-use|permission-request|post-tool-use|stop [--data-dir DIR]
       wda hook copilot pre-tool-use [--data-dir DIR]`

// Main runs `wda hook …` (and wda-hook) with the shipped tools' table. args are the
// arguments after "hook". cmd/wda and cmd/wda-hook call
//
//	os.Exit(hook.Main(args, os.Stdin, os.Stdout, os.Stderr, os.Getenv))
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return Run(classify.Shipped, args, stdin, stdout, stderr, getenv)
}

// Run is Main with explicit tool declarations (for tests and embedders).
func Run(specs classify.Specs, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return runWithPolicy(specs, systemPolicy, args, stdin, stdout, stderr, getenv)
}

// runWithPolicy is Run with the managed policy's loader (docs/policy.md), called only when a
// call of this server's tools is decided.
func runWithPolicy(specs classify.Specs, loadPolicy func() policy.State, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if getenv == nil {
		getenv = os.Getenv
	}
	cl, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "wda hook: %v\n%s\n", err, Usage)
		return 2
	}
	cfg, err := config.Resolve(cl.host, config.Flags{DataDir: cl.dataDir}, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "wda hook: %v\n%s\n", err, Usage)
		return 2
	}
	h := handlers[cl.host+" "+cl.event]
	c := &call{specs: specs, stderr: stderr, getenv: getenv, sessionFlag: cl.sessionID,
		dataDir: cfg.DataDir, host: cl.host, catalogPath: cfg.CatalogPath, loadPolicy: loadPolicy}
	out := c.safely(h, stdin)
	if out != nil {
		if err := writeJSON(stdout, out); err != nil {
			fmt.Fprintf(stderr, "wda hook: writing output: %v\n", err)
		}
	}
	return 0
}

// handler answers one event: the JSON object to print, or nil for no output.
type handler struct {
	run func(c *call, stdin io.Reader) any
	// onPanic is the answer when run panics (fail closed for the permission hooks).
	onPanic func(c *call) any
}

var handlers = map[string]handler{
	"claude pre-tool-use":          {run: claudePreToolUse, onPanic: claudePanicDeny},
	"claude post-tool-use":         {run: traceHandler(eventPostToolUse)},
	"claude post-tool-use-failure": {run: traceHandler(eventPostToolUseFailure)},
	"claude stop":                  {run: claudeStop},
	"codex pre-tool-use":           {run: codexPreToolUse, onPanic: codexPanicDeny},
	"codex permission-request":     {run: codexPermissionRequest},
	"codex post-tool-use":          {run: traceHandler(eventPostToolUse)},
	"codex stop":                   {run: codexStop},
}

// call is the per-invocation state every handler gets.
type call struct {
	specs       classify.Specs
	catalogPath string
	stderr      io.Writer
	getenv      func(string) string
	dataDir     string
	host        string
	sessionFlag string
	found       found // the user catalog's capability, once read
	loadPolicy  func() policy.State
	policy      *policy.State // the managed policy, once read (policy.go)
	refusalRule string        // the policy's audit word when it denied the call
}

// safely runs h and turns a panic into a warning and h's fail-closed answer.
func (c *call) safely(h handler, stdin io.Reader) (out any) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(c.stderr, "wda hook: internal error: %v\n", r)
			out = nil
			if h.onPanic != nil {
				out = h.onPanic(c)
			}
		}
	}()
	return h.run(c, stdin)
}

func (c *call) warnf(format string, a ...any) {
	fmt.Fprintf(c.stderr, "wda hook: warning: "+format+"\n", a...)
}

type cmdline struct {
	host, event, dataDir, sessionID string
}

// parseArgs accepts the two positional words and the flags in any order, as
// --flag VALUE or --flag=VALUE (one or two dashes).
func parseArgs(args []string) (cmdline, error) {
	var cl cmdline
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var dst *string
		switch name {
		case "data-dir":
			dst = &cl.dataDir
		case "session-id":
			dst = &cl.sessionID
		default:
			return cl, fmt.Errorf("unknown flag %s", a)
		}
		if !hasVal {
			if i+1 >= len(args) {
				return cl, fmt.Errorf("flag --%s needs a value", name)
			}
			i++
			val = args[i]
		}
		*dst = val
	}
	if len(pos) != 2 {
		return cl, fmt.Errorf("want a host and an event, got %q", pos)
	}
	cl.host, cl.event = pos[0], pos[1]
	if _, ok := handlers[cl.host+" "+cl.event]; !ok {
		return cl, fmt.Errorf("unknown hook %q %q", cl.host, cl.event)
	}
	if cl.sessionID != "" && cl.host != "claude" {
		return cl, fmt.Errorf("--session-id is a Claude Stop option")
	}
	return cl, nil
}

// classify is the class of a hook event's call, with the capability catalog in force
// (catalog.go).
func (c *call) classify(tool string, input map[string]any) tools.Class {
	class, _ := classify.DecideWith(c.specs, c.oracles(), tool, input)
	return class
}
