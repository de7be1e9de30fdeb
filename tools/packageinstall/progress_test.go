package packageinstall_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/progresstest"
	"github.com/windows-dev-agent/wda/tools/packageinstall"
)

// TestProgress: while the installer of a reviewed plan runs, what the runner reports
// reaches the call's progress sink, for every source; an unwatched install asks for no
// reports. The plan call itself runs nothing and reports nothing.
func TestProgress(t *testing.T) {
	t.Parallel()
	for _, source := range []string{"winget", "chocolatey", "scoop"} {
		for _, c := range progresstest.Cases() {
			t.Run(source+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				run, rec, sink := c.New()
				// The echo check compares real files, so the manager is one.
				exe := filepath.Join(t.TempDir(), "manager.exe")
				if err := os.WriteFile(exe, []byte("manager"), 0o755); err != nil {
					t.Fatal(err)
				}
				var invalidated atomic.Int32
				d := packageinstall.DefaultDeps()
				d.Run = run.Run
				d.Resolver = func(func(string) string) proc.Resolver { return progresstest.ResolveTo(exe) }
				d.Fingerprint = func(string) (proc.Identity, error) {
					return proc.Identity{Kind: proc.KindFile, SHA256: strings.Repeat("ab", 32)}, nil
				}
				d.Invalidate = func(string) error { invalidated.Add(1); return nil }
				env := &tools.Env{DataDir: t.TempDir(), Getenv: func(string) string { return "" }, Progress: sink}
				tool := packageinstall.New(d)

				res, err := tool.Call(context.Background(), env, tools.Args{"package_id": "Git.Git", "source": source})
				if err != nil {
					t.Fatal(err)
				}
				planned := res.(packageinstall.Out)
				if planned.ExecuteArguments == nil {
					t.Fatalf("no execute_arguments in the plan: %+v", planned)
				}
				// The caller echoes execute_arguments as they are.
				b, _ := json.Marshal(planned.ExecuteArguments)
				var echo tools.Args
				if err := json.Unmarshal(b, &echo); err != nil {
					t.Fatal(err)
				}
				res, err = tool.Call(context.Background(), env, echo)
				if err != nil {
					t.Fatal(err)
				}
				if out := res.(packageinstall.Out); out.Status.Status != tools.StatusCompleted || !out.ExecutionStarted {
					t.Fatalf("the install did not run to completion: %+v", out)
				}
				if invalidated.Load() != 1 {
					t.Errorf("cache invalidated %d times, want once", invalidated.Load())
				}
				c.Check(t, run, rec)
			})
		}
	}
}
