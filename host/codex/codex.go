package codex

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Refusals of the project argument (docs/hosts/codex.md). The "Not a directory: …"
// refusal comes from internal/platform/contain.
const (
	MsgNotString   = "Current Codex project directory must be a string"
	MsgRequired    = "Current Codex project directory is required for this tool"
	MsgNotAbsolute = "Current Codex project directory must be an absolute path"
)

// ProjectArgDescription describes a project argument that tools/list adds when a
// project-scoped tool's schema lacks it.
const ProjectArgDescription = "Absolute current Codex project directory; never the plugin cache."

// Host is the Codex adapter. Create it with New.
type Host struct{}

// New returns the Codex adapter.
func New() *Host { return &Host{} }

// Name is "codex".
func (*Host) Name() string { return "codex" }

// Instructions is the initialize instructions.
func (*Host) Instructions() string { return Instructions }

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

// Bind checks the project argument (string, non-blank, absolute, an existing
// directory) and opens that directory. Codex tells the server nothing about the
// session's project, so containment in the session cwd is the hooks' check.
func (*Host) Bind(_ tools.Tool, v any) (*tools.Project, error) {
	var s string
	switch x := v.(type) {
	case nil:
		return nil, &host.BindError{Msg: MsgRequired}
	case string:
		s = strings.TrimSpace(x)
	default:
		return nil, &host.BindError{Msg: MsgNotString}
	}
	if s == "" {
		return nil, &host.BindError{Msg: MsgRequired}
	}
	if !filepath.IsAbs(s) {
		return nil, &host.BindError{Msg: MsgNotAbsolute}
	}
	root, err := contain.NewRoot(s)
	if err != nil {
		return nil, &host.BindError{Msg: err.Error()}
	}
	p, err := root.Open("")
	if err != nil {
		var nd *contain.NotDirError
		if errors.As(err, &nd) {
			return nil, &host.BindError{Msg: nd.Error()}
		}
		return nil, &host.BindError{Msg: "Not a directory: " + s}
	}
	return p, nil
}
