package host

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Absolute binds the project argument for a host that tells the server nothing about
// the session's project (the Copilot CLI and VS Code loading an Agent Plugin, Claude
// Desktop loading an MCPB bundle): the argument is required, must be a string, absolute
// before any resolution and an existing directory, and tools/list marks it required.
// Containment cannot be checked here (there is no root to check it against); where the
// host has hooks, they check it against the session's directory (docs/hosts/copilot.md).
type Absolute struct {
	// Project names the directory in refusals and in the advertised argument, e.g.
	// "Current Copilot project directory" (sentence start, no article).
	Project string
	// Never names what the argument must not be, for the advertised description
	// ("the plugin folder").
	Never string
}

// Refusals of an Absolute binding, after its Project name.
const (
	absNotString   = " must be a string"
	absRequired    = " is required for this tool"
	absNotAbsolute = " must be an absolute path"
)

// MsgRequired is the refusal of a missing or blank argument.
func (a Absolute) MsgRequired() string { return a.Project + absRequired }

// MsgNotString is the refusal of a non-string argument.
func (a Absolute) MsgNotString() string { return a.Project + absNotString }

// MsgNotAbsolute is the refusal of a relative argument.
func (a Absolute) MsgNotAbsolute() string { return a.Project + absNotAbsolute }

// ArgDescription describes a project argument that tools/list adds when a
// project-scoped tool's schema lacks it.
func (a Absolute) ArgDescription() string {
	return "Absolute " + strings.ToLower(a.Project[:1]) + a.Project[1:] + "; never " + a.Never + "."
}

// AdvertisedSchema returns a copy of s whose required list includes the tool's project
// argument (adding the property when s lacks it). s itself is never modified: the
// validator and every other host share it.
func (a Absolute) AdvertisedSchema(t tools.Tool, s *schema.Schema) *schema.Schema {
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
		cp.Properties.Set(arg, &schema.Schema{Type: "string", Description: a.ArgDescription()})
	}
	cp.Required = slices.Clone(s.Required)
	if !slices.Contains(cp.Required, arg) {
		cp.Required = append(cp.Required, arg)
	}
	return &cp
}

// Path checks the project argument: a non-blank string, absolute before any
// resolution. It returns the trimmed path.
func (a Absolute) Path(v any) (string, error) {
	var s string
	switch x := v.(type) {
	case nil:
		return "", &BindError{Msg: a.MsgRequired()}
	case string:
		s = strings.TrimSpace(x)
	default:
		return "", &BindError{Msg: a.MsgNotString()}
	}
	if s == "" {
		return "", &BindError{Msg: a.MsgRequired()}
	}
	// filepath.IsAbs is false for Windows' drive-relative C:x and rooted \x, which
	// would otherwise resolve against the server's own current directory or drive.
	if !filepath.IsAbs(s) {
		return "", &BindError{Msg: a.MsgNotAbsolute()}
	}
	return s, nil
}

// Bind checks the project argument (Path) and opens that directory, which must exist.
func (a Absolute) Bind(_ tools.Tool, v any, _ Call) (*tools.Project, error) {
	s, err := a.Path(v)
	if err != nil {
		return nil, err
	}
	root, err := contain.NewRoot(s)
	if err != nil {
		return nil, &BindError{Msg: err.Error()}
	}
	p, err := root.Open("")
	if err != nil {
		var nd *contain.NotDirError
		if errors.As(err, &nd) {
			return nil, &BindError{Msg: nd.Error()}
		}
		return nil, &BindError{Msg: "Not a directory: " + s}
	}
	return p, nil
}
