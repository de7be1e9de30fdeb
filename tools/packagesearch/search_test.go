package packagesearch

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/pmtest"
)

func TestMain(m *testing.M) { os.Exit(pmtest.Main(m)) }

// world is one test's PATH directory with fakes in it and the Env pointing at it.
type world struct{ *pmtest.World }

func newWorld(t *testing.T) *world { return &world{pmtest.NewWorld(t)} }

// fake installs the fake as name with c (Report defaults to the world's report file).
func (w *world) fake(name string, c pmtest.Config) string {
	w.T.Helper()
	if c.Fixture != "" {
		abs, err := filepath.Abs(c.Fixture) // the fake runs in its own directory
		if err != nil {
			w.T.Fatal(err)
		}
		c.Fixture = abs
	}
	if c.Report == "" {
		c.Report = w.Report
	}
	return noForks(func() string { return w.Install(name, c) })
}

// noForks runs write, which writes an executable, while no process can be started in
// this test binary. The tests run in parallel and each installs fakes and runs them:
// a child forked by another test while the fake's file is open for writing holds that
// descriptor until its own exec, and until then the fake cannot be started ("text file
// busy", golang.org/issue/22315). Every fork takes syscall.ForkLock for writing, so
// holding it for reading keeps forks out for the duration of the write.
func noForks[T any](write func() T) T {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	return write()
}

func (w *world) search(d Deps, in In) Out {
	w.T.Helper()
	out := d.handle(context.Background(), w.Env, in)
	if err := testkit.CheckOutput(New(DefaultDeps()), out); err != nil {
		w.T.Errorf("result does not conform to the output schema: %v\n%+v", err, out)
	}
	return out
}

func wingetFixture(name string) string {
	return filepath.Join("..", "internal", "pkgtable", "testdata", name)
}

func TestArgvPerSource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		source, exe string
		tail        []string
	}{
		{"", "winget", []string{"search", "--query", "python 3", "--source", "winget", "--disable-interactivity"}},
		{"winget", "winget", []string{"search", "--query", "python 3", "--source", "winget", "--disable-interactivity"}},
		{"chocolatey", "choco", []string{"search", "python 3", "--limit-output"}},
		{"scoop", "scoop", []string{"search", "python 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.source+"/"+tt.exe, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			exe := w.fake(tt.exe, pmtest.Config{})
			var req proc.Request
			d := DefaultDeps()
			d.Run = func(ctx context.Context, r proc.Request) proc.Receipt { req = r; return proc.Run(ctx, r) }
			out := w.search(d, In{Query: "  python 3 ", Source: tt.source})
			rep, ran := w.Ran()
			if !ran {
				t.Fatalf("the fake never ran: %+v", out)
			}
			want := append([]string{exe}, tt.tail...)
			if d := cmp.Diff(want, rep.Argv); d != "" {
				t.Errorf("argv received by the fake (-want +got):\n%s", d)
			}
			if d := cmp.Diff(want, out.Argv); d != "" {
				t.Errorf("argv reported (-want +got):\n%s", d)
			}
			for _, a := range rep.Argv {
				if a == "install" || strings.HasPrefix(a, "--accept") {
					t.Errorf("search argv contains %q", a)
				}
			}
			if req.Timeout != 90*time.Second || req.Dir != w.Bin {
				t.Errorf("timeout %s dir %s, want 90s and the manager's directory", req.Timeout, req.Dir)
			}
			if out.Status.Status != "completed" || !out.ExecutionStarted || !out.Succeeded || out.Query != "python 3" {
				t.Errorf("out = %+v", out)
			}
		})
	}
}

func TestWingetMatches(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake("winget", pmtest.Config{Fixture: wingetFixture("truncated_column.txt")})
	out := w.search(DefaultDeps(), In{Query: "visual studio"})
	want := []Match{
		{Name: "Microsoft Visual C++ 2015-2022 Redistribu…", ID: "Microsoft.VCRedist.2015+.x64", Version: "14.44.35208.0", Source: "winget", NameTruncated: true},
		{Name: "Visual Studio Build Tools 2022", ID: "Microsoft.VisualStudio.2022.BuildTools", Version: "17.14.2", Source: "winget"},
		{Name: "Microsoft .NET SDK 9.0 with an unusually …", ID: "Microsoft.DotNet.SDK.9", Version: "9.0.300", Source: "winget", NameTruncated: true},
	}
	if d := cmp.Diff(want, out.Matches); d != "" {
		t.Errorf("matches (-want +got):\n%s", d)
	}
	if out.MatchesSkipped != 1 || !strings.Contains(out.Warning, "cut off") || out.Status.Status != "completed" {
		t.Errorf("skipped=%d warning=%q status=%s", out.MatchesSkipped, out.Warning, out.Status.Status)
	}
	if !strings.Contains(out.Stdout, "Microsoft.VisualStudio.2022.BuildTools") {
		t.Errorf("raw stdout tail missing: %q", out.Stdout)
	}
}

func TestOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, source, exe string
		cfg               pmtest.Config
		status            string
		ids               []string // nil: matches absent
		skipped           int
	}{
		{"winget results", "winget", "winget", pmtest.Config{Fixture: wingetFixture("search_results.txt")}, "completed",
			[]string{"Python.Python.3.12", "Python.Python.3.13", "Python.Python.3.11", "Python.Launcher", "Anaconda.Miniconda3", "JetBrains.PyCharm.Community", "astral-sh.uv", "astral-sh.ruff"}, 0},
		{"winget no results exits non-zero", "winget", "winget", pmtest.Config{Fixture: wingetFixture("no_results.txt"), Exit: 20}, "failed", []string{}, 0},
		{"winget agreement declined", "winget", "winget", pmtest.Config{Fixture: wingetFixture("source_agreement_declined.txt"), Exit: 21}, "failed", []string{}, 0},
		{"winget non-Latin", "winget", "winget", pmtest.Config{Fixture: wingetFixture("non_latin.txt")}, "completed",
			[]string{"Sogou.SogouInput", "Baidu.BaiduNetdisk", "Kakao.KakaoTalk", "Hancom.OfficeViewer", "Yandex.Browser", "Contoso.EcranQuebecois"}, 0},
		{"chocolatey", "chocolatey", "choco", pmtest.Config{Fixture: filepath.Join("testdata", "choco_limit_output.txt")}, "completed",
			[]string{"git", "git.install", "git-lfs"}, 2},
		{"scoop table", "scoop", "scoop", pmtest.Config{Fixture: filepath.Join("testdata", "scoop_search.txt")}, "completed",
			[]string{"python", "python312", "pypy3"}, 0},
		{"scoop none", "scoop", "scoop", pmtest.Config{Fixture: filepath.Join("testdata", "scoop_none.txt")}, "completed", []string{}, 0},
		{"10 MB of stdout", "winget", "winget", pmtest.Config{Mode: "flood", FloodBytes: 10 << 20}, "incomplete", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake(tt.exe, tt.cfg)
			out := w.search(DefaultDeps(), In{Query: "q", Source: tt.source})
			if out.Status.Status != tt.status || !out.ExecutionStarted {
				t.Fatalf("status %s started %v, want %s: %+v", out.Status.Status, out.ExecutionStarted, tt.status, out)
			}
			var got []string
			if out.Matches != nil {
				got = []string{}
				for _, m := range out.Matches {
					got = append(got, m.ID)
				}
			}
			if d := cmp.Diff(tt.ids, got); d != "" {
				t.Errorf("ids (-want +got):\n%s", d)
			}
			if out.MatchesSkipped != tt.skipped {
				t.Errorf("skipped = %d, want %d", out.MatchesSkipped, tt.skipped)
			}
		})
	}
}

func TestScoopFields(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake("scoop", pmtest.Config{Fixture: filepath.Join("testdata", "scoop_search.txt")})
	out := w.search(DefaultDeps(), In{Query: "python", Source: "scoop"})
	want := []Match{
		{Name: "python", ID: "python", Version: "3.13.3", Source: "main"},
		{Name: "python312", ID: "python312", Version: "3.12.10", Source: "versions"},
		{Name: "pypy3", ID: "pypy3", Version: "7.3.19", Source: "main"},
	}
	if d := cmp.Diff(want, out.Matches); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestTruncatedOutputIsIncomplete(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake("winget", pmtest.Config{Mode: "flood", FloodBytes: 10 << 20})
	out := w.search(DefaultDeps(), In{Query: "x"})
	if out.Status.Status != "incomplete" || !out.Succeeded || !out.StdoutTruncated ||
		!strings.Contains(out.Warning, "incomplete or truncated") || out.Matches != nil {
		t.Errorf("out = status %s succeeded %v truncated %v warning %q matches %v", out.Status.Status, out.Succeeded, out.StdoutTruncated, out.Warning, out.Matches)
	}
	if len(out.Stdout) > proc.DefaultStdoutLimit {
		t.Errorf("stdout tail is %d bytes", len(out.Stdout))
	}
}

func TestTimeoutKillsTree(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	w.fake("winget", pmtest.Config{Mode: "hang", GrandchildPID: pidFile})
	d := DefaultDeps()
	d.Timeout = time.Second
	out := w.search(d, In{Query: "x"})
	if out.Status.Status != "failed" || !out.ExecutionStarted || !out.TimedOut || out.Succeeded ||
		!strings.Contains(out.Error, "timed out") {
		t.Fatalf("out = %+v", out)
	}
	// The grandchild shared stdout: a clean EOF means every holder of the pipe is gone.
	if !out.OutputCaptureComplete || !out.OutputCaptureSettled {
		t.Errorf("capture complete=%v settled=%v: a descendant survived", out.OutputCaptureComplete, out.OutputCaptureSettled)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	if pid <= 0 || !pmtest.Gone(pid, 5*time.Second) {
		t.Errorf("grandchild %d survived the timeout", pid)
	}
}

func TestUnavailable(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ source, exe string }{{"winget", "winget"}, {"chocolatey", "choco"}, {"scoop", "scoop"}} {
		w := newWorld(t)
		if tt.exe != "winget" {
			w.fake("winget", pmtest.Config{}) // another manager is installed; this one is not
		}
		out := w.search(DefaultDeps(), In{Query: "x", Source: tt.source})
		want := Out{Status: tools.Status{Status: "unavailable", Error: tt.exe + " is not installed"}, Query: "x", Source: tt.source}
		if d := cmp.Diff(want, out); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.source, d)
		}
		if _, ran := w.Ran(); ran {
			t.Errorf("%s: a process ran", tt.source)
		}
	}
}

func TestInvalidQuery(t *testing.T) {
	t.Parallel()
	tests := []struct{ q, msg string }{
		{"", errQuery}, {"   ", errQuery}, {strings.Repeat("a", 161), errQuery},
		{"a\x01b", errQuery}, {"a\nb", errQuery}, {"tab\there", errQuery}, {"del\x7f", errQuery}, {"c1\u0085x", errQuery},
		{"-v", errQueryOption}, {"--source=https://example.invalid", errQueryOption},
	}
	for _, tt := range tests {
		w := newWorld(t)
		w.fake("winget", pmtest.Config{})
		out := w.search(DefaultDeps(), In{Query: tt.q})
		if out.Status.Status != "invalid_input" || out.Error != tt.msg || out.ExecutionStarted {
			t.Errorf("query %q: %+v", tt.q, out)
		}
		if _, ran := w.Ran(); ran {
			t.Errorf("query %q: the fake ran", tt.q)
		}
	}
	w := newWorld(t)
	w.fake("winget", pmtest.Config{})
	long := strings.Repeat("é", 160) // 160 characters, 320 bytes
	if out := w.search(DefaultDeps(), In{Query: long}); out.Status.Status != "completed" {
		t.Errorf("160-character query: %+v", out)
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	for _, a := range []tools.Args{{}, {"query": "x"}, {"source": "scoop"}} {
		if c := New(DefaultDeps()).Classify(a); c != tools.ApprovalRequired {
			t.Errorf("Classify(%v) = %s", a, c)
		}
	}
}
