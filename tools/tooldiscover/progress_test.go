package tooldiscover_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/progresstest"
	"github.com/windows-dev-agent/wda/tools/tooldiscover"
)

func discoverWatched(t *testing.T, category string, resolved fakeResolver, runner proc.Runner, sink func(tools.Progress)) tooldiscover.Out {
	t.Helper()
	d := tooldiscover.Deps{
		Resolver:    func(func(string) string) proc.Resolver { return resolved },
		Runner:      runner,
		FileVersion: func(string) (string, error) { return "", errors.New("no version resource") },
		Dir:         func() string { return t.TempDir() },
	}
	env := &tools.Env{Getenv: func(string) string { return "" }, Progress: sink}
	res, err := tooldiscover.New(d).Call(context.Background(), env, tools.Args{"category": category})
	if err != nil {
		t.Fatal(err)
	}
	return res.(tooldiscover.Out)
}

var probedLine = regexp.MustCompile(`^probed (\d+) of (\d+) tools \((.+)\)$`)

// TestProgressPerProbe: a watched discovery reports once per tool of the category as
// its probe finishes — whether it ran a process, read a file version or found nothing
// — with how many of how many are done and which tool it was. Probes run in parallel,
// so which tool comes with which count is not fixed: the counts are 1..n and every
// tool is named once.
func TestProgressPerProbe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		category string
		resolved fakeResolver
	}{
		{"vcs", fakeResolver{"git": true, "gh": true}},
		{"editors", fakeResolver{"code": true, "devenv": true}},
		{"runtimes", fakeResolver{}},
		{"all", fakeResolver{"go": true, "winget": true, "rider": true, "git-lfs": true}},
	}
	for _, tt := range tests {
		t.Run(tt.category, func(t *testing.T) {
			t.Parallel()
			var want []string
			for _, g := range tooldiscover.Groups {
				if tt.category == "all" || tt.category == g.Name {
					want = append(want, g.Tools...)
				}
			}
			log := &progresstest.Recorder{}
			discoverWatched(t, tt.category, tt.resolved, &fakeRunner{}, log.Report)
			var names []string
			var counts, wantCounts []int
			for k := range len(want) {
				wantCounts = append(wantCounts, k+1)
			}
			for i, p := range log.Got() {
				m := probedLine.FindStringSubmatch(p.Message)
				if m == nil || p.Elapsed < 0 {
					t.Errorf("report %d = %+v, want a non-negative elapsed and \"probed k of n tools (name)\"", i, p)
					continue
				}
				k, _ := strconv.Atoi(m[1])
				if n, _ := strconv.Atoi(m[2]); n != len(want) {
					t.Errorf("report %q: of %d tools, want %d", p.Message, n, len(want))
				}
				counts, names = append(counts, k), append(names, m[3])
			}
			slices.Sort(counts)
			slices.Sort(names)
			slices.Sort(want)
			if d := cmp.Diff(want, names); d != "" {
				t.Errorf("tools named in the reports (-want +got):\n%s", d)
			}
			if d := cmp.Diff(wantCounts, counts); d != "" {
				t.Errorf("done counts of the reports (-want +got):\n%s", d)
			}
		})
	}
}

// gatedRunner holds the probe of one executable until the discovery has reported
// progress: progress must reach the sink while a probe process still runs, not only
// once the whole discovery is over.
type gatedRunner struct {
	fakeRunner
	t     *testing.T
	gated string
	open  <-chan struct{}
}

func (g *gatedRunner) Run(ctx context.Context, req proc.Request) proc.Receipt {
	if req.Argv[0] == g.gated {
		select {
		case <-g.open:
		case <-time.After(10 * time.Second): // failure guard only
			g.t.Errorf("no progress was reported while the probe of %s was running", g.gated)
		}
	}
	return g.fakeRunner.Run(ctx, req)
}

func TestProgressWhileProbing(t *testing.T) {
	t.Parallel()
	log := &progresstest.Recorder{}
	// git is probed first and waits; gh and git-lfs finish meanwhile (four probes run
	// at once) and must be reported before git's probe returns.
	r := &gatedRunner{t: t, gated: "/abs/git", open: log.First()}
	out := discoverWatched(t, "vcs", fakeResolver{"git": true, "gh": true}, r, log.Report)
	if out.VCS == nil || out.VCS.Git.VersionStatus != "known" {
		t.Fatalf("git was not probed: %+v", out.VCS)
	}
	if got := len(log.Got()); got != 3 {
		t.Errorf("%d reports, want one per tool of vcs (3)", got)
	}
}
