package host

import (
	"errors"
	"fmt"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/platform/home"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Host is the seam a host adapter fills: how the project argument of a call is bound
// and what the host is told at initialize (docs/architecture.md).
type Host interface {
	Name() string
	// Instructions is sent as the initialize instructions ("" for none).
	Instructions() string
	// AdvertisedSchema may adjust a tool's input schema for tools/list (Codex marks the
	// project argument required). It must not mutate s; return s when unchanged.
	AdvertisedSchema(t tools.Tool, s *schema.Schema) *schema.Schema
	// Bind binds the validated value v of t's project argument (nil when absent) to the
	// opened directory the call must use. A *BindError refuses the call as
	// invalid_input; the handler does not run.
	Bind(t tools.Tool, v any, c Call) (*tools.Project, error)
}

// Call is what the host said about one call besides its arguments (from the request's
// _meta): the call's id and the session it belongs to, "" when not given.
type Call struct {
	ID      string
	Session string
}

// Noticer is a Host that may have something to tell the model and the user once, as the
// first text of a call's result (Codex: its hook layer is not running).
type Noticer interface {
	Notice(t tools.Tool, c Call) string
}

// BindError is a refusal of the host binding, shown to the caller as invalid_input.
type BindError struct{ Msg string }

func (e *BindError) Error() string { return e.Msg }

// Contained binds project arguments inside one root, the project the session works
// on: absent or blank means the root, a relative path is taken under it, an absolute
// one must lie inside it. Claude Code and the generic host (the CLI) bind this way.
type Contained struct {
	// Root is the project, resolved at start-up; Err is why it could not be, reported
	// on every project-scoped call.
	Root contain.Root
	Err  error
	// Label names the project in refusals ("the active Claude project").
	Label string
	// Getenv expands a leading ~ (nil means os.Getenv).
	Getenv func(string) string
}

// NewContained resolves dir as the root; a failure is kept and reported per call.
// missing is the refusal when dir is blank.
func NewContained(dir, label, missing string, getenv func(string) string) Contained {
	c := Contained{Label: label, Getenv: getenv}
	if dir == "" {
		c.Err = &BindError{Msg: missing}
		return c
	}
	root, err := contain.NewRoot(home.Expand(dir, getenv))
	if err != nil {
		c.Err = &BindError{Msg: err.Error()}
		return c
	}
	c.Root = root
	return c
}

// Bind implements Host.Bind for a contained project.
func (c Contained) Bind(t tools.Tool, v any, _ Call) (*tools.Project, error) {
	if c.Err != nil {
		return nil, c.Err
	}
	arg := t.ProjectArg()
	s, err := projectString(arg, v)
	if err != nil {
		return nil, err
	}
	p, err := c.Root.Open(home.Expand(s, c.Getenv))
	var nd *contain.NotDirError
	switch {
	case err == nil:
		return p, nil
	case errors.As(err, &nd):
		return nil, &BindError{Msg: nd.Error()}
	}
	return nil, &BindError{Msg: fmt.Sprintf("%s must stay inside %s: %s", arg, c.Label, c.Root.Path)}
}

// projectString is the value of a project argument as a string; nil is "".
func projectString(arg string, v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	}
	return "", &BindError{Msg: fmt.Sprintf("%s must be a string", arg)}
}

// Generic is the host of `wda mcp --host generic` and of the human commands: project
// arguments stay inside the project (WINDOWS_DEV_AGENT_PROJECT_DIR or the current
// directory) unless the user names another with --project.
type Generic struct{ Contained }

// NewGeneric contains every project argument in dir.
func NewGeneric(dir string, getenv func(string) string) Generic {
	return Generic{NewContained(dir, "the project", "no project directory: set WINDOWS_DEV_AGENT_PROJECT_DIR or pass --project", getenv)}
}

func (Generic) Name() string                                                   { return "generic" }
func (Generic) Instructions() string                                           { return "" }
func (Generic) AdvertisedSchema(_ tools.Tool, s *schema.Schema) *schema.Schema { return s }
