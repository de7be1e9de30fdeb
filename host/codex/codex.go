package codex

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/hostenv"
	"github.com/windows-dev-agent/wda/host/scope"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Refusals of the project argument (tools.md §2.3). The "Not a directory: …" refusal
// comes from host/scope.
const (
	MsgNotString   = "Current Codex project directory must be a string"
	MsgRequired    = "Current Codex project directory is required for this tool"
	MsgNotAbsolute = "Current Codex project directory must be an absolute path"
)

// ProjectArgDescription describes a project argument that tools/list adds when a
// project-scoped tool's schema lacks it.
const ProjectArgDescription = "Absolute current Codex project directory; never the plugin cache."

// Environment variables the adapter reads.
const (
	DataDirVar   = "WINDOWS_DEV_AGENT_DATA_DIR"
	CodexHomeVar = "CODEX_HOME"
)

// Host is the Codex adapter. Create it with New.
type Host struct{ getenv func(string) string }

// New returns the Codex adapter reading its environment through getenv (nil means
// os.Getenv).
func New(getenv func(string) string) *Host { return &Host{getenv: getenv} }

// Name is "codex".
func (*Host) Name() string { return "codex" }

// Instructions is the initialize instructions of hosts.md §2.8.
func (*Host) Instructions() string { return Instructions }

// DataDir is the Codex data dir for this adapter's environment.
func (h *Host) DataDir() string { return DataDir(h.getenv) }

// DataDir is WINDOWS_DEV_AGENT_DATA_DIR if set, else
// ${CODEX_HOME:-~/.codex}/plugins/data/windows-dev-agent. PLUGIN_DATA is never read.
func DataDir(getenv func(string) string) string {
	if v := hostenv.Var(getenv, DataDirVar); v != "" {
		return v
	}
	return filepath.Join(Home(getenv), "plugins", "data", wda.ServerName)
}

// Home is ${CODEX_HOME:-~/.codex} with a leading ~ expanded.
func Home(getenv func(string) string) string {
	if v := hostenv.Var(getenv, CodexHomeVar); v != "" {
		return hostenv.ExpandHome(v, getenv)
	}
	return filepath.Join(hostenv.Home(getenv), ".codex")
}

// AdvertisedSchema returns a copy of s whose required list includes the tool's project
// argument (adding the property when s lacks it). s itself is never modified: it is the
// schema the validator and every other host share.
func (*Host) AdvertisedSchema(t tools.Tool, s *schema.Schema) *schema.Schema {
	arg := t.ProjectArg()
	if arg == "" || s == nil {
		return s
	}
	cp := *s
	cp.Properties = jsonschema.NewProperties()
	if s.Properties != nil {
		for k, v := range s.Properties.FromOldest() {
			cp.Properties.Set(k, v)
		}
	}
	if _, ok := cp.Properties.Get(arg); !ok {
		cp.Properties.Set(arg, &schema.Schema{Type: "string", Description: ProjectArgDescription})
	}
	cp.Required = slices.Clone(s.Required)
	if !slices.Contains(cp.Required, arg) {
		cp.Required = append(cp.Required, arg)
	}
	return &cp
}

// Bind sets env.DataDir for every call and, for a project-scoped tool, checks the
// project argument (string, non-blank, absolute, an existing directory), rewrites it to
// the resolved path and sets env.ProjectDir.
func (h *Host) Bind(_ context.Context, t tools.Tool, args map[string]any, env *tools.Env) error {
	env.DataDir = h.DataDir()
	arg := t.ProjectArg()
	if arg == "" {
		return nil
	}
	dir, err := Project(args[arg])
	if err != nil {
		return &host.BindError{Msg: err.Error()}
	}
	args[arg] = dir
	env.ProjectDir = dir
	return nil
}

// Project validates a Codex project argument value and returns the resolved directory.
func Project(v any) (string, error) {
	var s string
	switch x := v.(type) {
	case nil:
		return "", errors.New(MsgRequired)
	case string:
		s = strings.TrimSpace(x)
	default:
		return "", errors.New(MsgNotString)
	}
	if s == "" {
		return "", errors.New(MsgRequired)
	}
	if !scope.IsAbsolute(s) {
		return "", errors.New(MsgNotAbsolute)
	}
	return scope.ResolveDir(s)
}
