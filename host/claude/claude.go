package claude

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/hostenv"
	"github.com/windows-dev-agent/wda/host/scope"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Environment variables the adapter reads.
const (
	// ProjectDirVar carries the active Claude project (from ${CLAUDE_PROJECT_DIR}).
	ProjectDirVar = "WINDOWS_DEV_AGENT_PROJECT_DIR"
	// DataDirVar is the explicit data dir (from ${CLAUDE_PLUGIN_DATA} in .mcp.json).
	DataDirVar = "WINDOWS_DEV_AGENT_DATA_DIR"
	// PluginDataVar is Claude's plugin-scoped persistent directory.
	PluginDataVar = "CLAUDE_PLUGIN_DATA"
)

// MsgNoProject is the refusal when the host supplied no project directory.
const MsgNoProject = "Claude project directory was not supplied by the host"

// Host is the Claude Code adapter. Create it with New.
type Host struct{ getenv func(string) string }

// New returns the Claude adapter reading its environment through getenv (nil means
// os.Getenv). The project root is read on every call, never cached.
func New(getenv func(string) string) *Host { return &Host{getenv: getenv} }

// Name is "claude".
func (*Host) Name() string { return "claude" }

// Instructions is empty: Claude needs no initialize instructions.
func (*Host) Instructions() string { return "" }

// AdvertisedSchema returns s unchanged: under Claude the project argument is optional.
func (*Host) AdvertisedSchema(_ tools.Tool, s *schema.Schema) *schema.Schema { return s }

// DataDir is WINDOWS_DEV_AGENT_DATA_DIR, else CLAUDE_PLUGIN_DATA, else the runtime
// default (the user cache dir).
func (h *Host) DataDir() string { return DataDir(h.getenv) }

// DataDir is the Claude data dir for getenv (see Host.DataDir).
func DataDir(getenv func(string) string) string {
	for _, k := range []string{DataDirVar, PluginDataVar} {
		if v := hostenv.Var(getenv, k); v != "" {
			return v
		}
	}
	return host.DefaultDataDir(func(string) string { return "" })
}

// Bind binds the project argument of a project-scoped tool (hosts.md §3.1): it rewrites
// args[t.ProjectArg()] to the resolved absolute directory and sets env.ProjectDir.
func (h *Host) Bind(_ context.Context, t tools.Tool, args map[string]any, env *tools.Env) error {
	arg := t.ProjectArg()
	if arg == "" {
		return nil
	}
	root, err := h.root()
	if err != nil {
		return err
	}
	dir, err := Contain(root, arg, args[arg], h.getenv)
	if err != nil {
		return err
	}
	args[arg] = dir
	env.ProjectDir = dir
	return nil
}

// root resolves the active project root.
func (h *Host) root() (string, error) {
	raw := hostenv.Var(h.getenv, ProjectDirVar)
	if raw == "" {
		return "", &host.BindError{Msg: MsgNoProject}
	}
	root, err := scope.ResolveDir(hostenv.ExpandHome(raw, h.getenv))
	if err != nil {
		return "", &host.BindError{Msg: err.Error()}
	}
	return root, nil
}

// Contain resolves the value v of the project argument arg against the resolved root
// and refuses anything that does not resolve to an existing directory inside it.
// nil or a blank string means the root itself.
func Contain(root, arg string, v any, getenv func(string) string) (string, error) {
	var s string
	switch x := v.(type) {
	case nil:
	case string:
		s = strings.TrimSpace(x)
	default:
		return "", &host.BindError{Msg: fmt.Sprintf("%s must be a string", arg)}
	}
	cand := root
	if s != "" {
		s = hostenv.ExpandHome(s, getenv)
		if scope.Anchored(s) {
			cand = s
		} else {
			cand = filepath.Join(root, s)
		}
	}
	dir, err := scope.ResolveDir(cand)
	if err != nil {
		var nd *scope.NotDirError
		if errors.As(err, &nd) {
			return "", &host.BindError{Msg: nd.Error()}
		}
		return "", &host.BindError{Msg: err.Error()}
	}
	if !scope.Within(root, dir) {
		return "", &host.BindError{Msg: fmt.Sprintf("%s must stay inside the active Claude project: %s", arg, root)}
	}
	return dir, nil
}
