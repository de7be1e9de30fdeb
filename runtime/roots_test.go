package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/runtime"
)

// TestRootsEnforced: Options.Roots confine the project in the pipeline whatever the
// host binds: the generic host here contains projects in the parent, the roots allow
// only one child, so the parent and a sibling are refused (outside_project in the
// audit) and the tool never sees them.
func TestRootsEnforced(t *testing.T) {
	t.Parallel()
	parent := testkit.TempDir(t)
	for _, d := range []string{"root", "sibling"} {
		if err := os.Mkdir(filepath.Join(parent, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(parent, "root")
	rec := &recorder{}
	cs := serve(t, rec, runtime.Options{ProjectDir: parent, Roots: []string{root}})
	for _, tc := range []struct {
		cwd string
		ok  bool
	}{{"", false}, {"sibling", false}, {"root", true}, {filepath.Join(root), true}} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{"name": "n", "cwd": tc.cwd}})
		if err != nil {
			t.Fatal(err)
		}
		if tc.ok == res.IsError {
			t.Errorf("cwd %q: isError %v, want %v", tc.cwd, res.IsError, !tc.ok)
		}
		if !tc.ok && !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "cwd must stay inside the server's roots: "+root) {
			t.Errorf("cwd %q: %q", tc.cwd, res.Content[0].(*mcp.TextContent).Text)
		}
	}
	if n := rec.count(); n != 2 {
		t.Fatalf("the tool ran %d times, want 2", n)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.recs[0].RefusalRule != "outside_project" || rec.recs[0].RefusalField != "cwd" {
		t.Fatalf("audit facts of a refusal: %+v", rec.recs[0])
	}
}
