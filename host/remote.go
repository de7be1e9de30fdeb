package host

import (
	"fmt"
	"strings"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/platform/home"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Remote is the host of `wda serve --http` (docs/remote.md): the client is on another
// machine, so a project is bound inside the server's own roots only. A blank project
// argument means the first root, a relative one is taken under it, an absolute one
// must lie inside one of the roots. The client's hooks do not run here; the
// instructions say so.
type Remote struct {
	roots []Contained
}

// NewRemote resolves each of dirs as a root; a root that cannot be resolved is kept
// and refused per call, like the other hosts' projects.
func NewRemote(dirs []string, getenv func(string) string) Remote {
	r := Remote{}
	for _, d := range dirs {
		r.roots = append(r.roots, NewContained(d, "the server's roots", "no root: pass --root", getenv))
	}
	return r
}

// Roots are the resolved paths of the roots that could be resolved.
func (r Remote) Roots() []string {
	var out []string
	for _, c := range r.roots {
		if c.Err == nil {
			out = append(out, c.Root.Path)
		}
	}
	return out
}

func (Remote) Name() string                                                   { return "remote" }
func (Remote) AdvertisedSchema(_ tools.Tool, s *schema.Schema) *schema.Schema { return s }

// Instructions tell the model what differs from a local session.
func (r Remote) Instructions() string {
	return "This server runs on a remote machine and is reached over HTTP: the hooks of your host do not run here, " +
		"but this server's own safety classes, blocking and the machine's managed policy still apply. " +
		"Projects are limited to these folders on the server: " + strings.Join(r.Roots(), ", ") + "."
}

// Bind implements Host.Bind across the roots.
func (r Remote) Bind(t tools.Tool, v any, c Call) (*tools.Project, error) {
	if len(r.roots) == 0 {
		return nil, &BindError{Msg: "no root: the server was started without --root"}
	}
	s, err := projectString(t.ProjectArg(), v)
	if err != nil {
		return nil, err
	}
	s = strings.TrimSpace(s)
	if s == "" || !contain.Anchored(home.Expand(s, r.roots[0].Getenv)) {
		return r.roots[0].Bind(t, v, c)
	}
	var first error
	for _, root := range r.roots {
		p, err := root.Bind(t, v, c)
		if err == nil {
			return p, nil
		}
		if first == nil {
			first = err
		}
	}
	if len(r.roots) == 1 {
		return nil, first
	}
	return nil, &BindError{Msg: fmt.Sprintf("%s must stay inside the server's roots: %s", t.ProjectArg(), strings.Join(r.Roots(), ", "))}
}
