package packagesearch_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/progresstest"
	"github.com/windows-dev-agent/wda/tools/packagesearch"
)

// TestProgress: while the manager's search runs, what the runner reports reaches the
// call's progress sink, for every source; an unwatched search asks for no reports.
func TestProgress(t *testing.T) {
	t.Parallel()
	for _, source := range []string{"winget", "chocolatey", "scoop"} {
		for _, c := range progresstest.Cases() {
			t.Run(source+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				run, rec, sink := c.New()
				exe := filepath.Join(t.TempDir(), "manager")
				d := packagesearch.DefaultDeps()
				d.Run = run.Run
				d.Resolver = func(func(string) string) proc.Resolver { return progresstest.ResolveTo(exe) }
				env := &tools.Env{Getenv: func(string) string { return "" }, Progress: sink}
				res, err := packagesearch.New(d).Call(context.Background(), env, tools.Args{"query": "git", "source": source})
				if err != nil {
					t.Fatal(err)
				}
				if out := res.(packagesearch.Out); out.Status.Status != tools.StatusCompleted || !out.ExecutionStarted {
					t.Fatalf("the search did not run to completion: %+v", out)
				}
				c.Check(t, run, rec)
			})
		}
	}
}
