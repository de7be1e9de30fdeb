package testkit

import (
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/tools"
)

// Project binds the directory dir as a call's project, the way the pipeline does for a
// project argument naming it, and closes it when the test ends. Handlers called
// directly in tests get their env.Project from it.
func Project(t testing.TB, dir string) *tools.Project {
	t.Helper()
	p, err := Bind(dir, "")
	if err != nil {
		t.Fatalf("binding %s: %v", dir, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// Bind binds value (relative to root, or absolute inside it; "" is root) as the Claude
// and generic hosts bind a project argument. The caller closes the project.
func Bind(root, value string) (*tools.Project, error) {
	r, err := contain.NewRoot(root)
	if err != nil {
		return nil, err
	}
	return r.Open(value)
}
