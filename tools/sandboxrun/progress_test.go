package sandboxrun

import (
	"context"
	"testing"

	"github.com/windows-dev-agent/wda/tools/internal/progresstest"
)

// TestProgress: while the captured run of a reviewed plan (WSL, Dev Container) runs,
// what the runner reports reaches the call's progress sink; an unwatched run asks for
// no reports. The plan call itself runs nothing and reports nothing. Windows Sandbox is
// not here: it is launched, not captured, and the call returns once it has started, so
// there is no run of the call's to report on.
func TestProgress(t *testing.T) {
	t.Parallel()
	backends := []struct {
		name, requirement, backend string
		setup                      func(*fixture)
	}{
		{"WSL", reqLinux, envWSL, func(*fixture) {}},
		{"Dev Container", reqReproduce, envDevContainer, func(f *fixture) {
			f.files(map[string]string{".devcontainer/devcontainer.json": "{}"})
		}},
	}
	for _, b := range backends {
		for _, c := range progresstest.Cases() {
			t.Run(b.name+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t)
				b.setup(f)
				run, rec, sink := c.New()
				f.env.Progress = sink
				d := f.Deps()
				d.Run = run.Run
				planned := d.handle(context.Background(), f.env, In{Command: "make test", IsolationRequirement: b.requirement})
				if planned.ExecuteArguments == nil {
					t.Fatalf("no execute_arguments in the plan: %+v", planned)
				}
				out := d.handle(context.Background(), f.env, *planned.ExecuteArguments)
				if out.Status.Status != "completed" || !out.ExecutionStarted || out.Environment != b.backend {
					t.Fatalf("the run did not complete: %+v", out)
				}
				c.Check(t, run, rec)
			})
		}
	}
}
