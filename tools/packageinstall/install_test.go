package packageinstall

import (
	"context"
	"errors"
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

const oldToken = "0123456789abcdef0123456789abcdef"

// world is a PATH directory for fakes and a data dir holding a warm cache: a
// generation token and a snapshot, so tests can tell whether anything invalidated it.
type world struct{ *pmtest.World }

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{pmtest.NewWorld(t)}
	data := w.Env.DataDir
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "environment.generation"), []byte(oldToken), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "environment.json"), []byte(`{"schema_version":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *world) fake(name string, c pmtest.Config) string {
	w.T.Helper()
	c.Report = w.Report
	c.DataDir = w.Env.DataDir
	c.GenerationWas = oldToken
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

// touch is pmtest.Touch under noForks.
func touch(exe string) error { return noForks(func() error { return pmtest.Touch(exe) }) }

// cacheIntact reports that nothing invalidated the cache.
func (w *world) cacheIntact() bool {
	g, err := os.ReadFile(filepath.Join(w.Env.DataDir, "environment.generation"))
	_, serr := os.Stat(filepath.Join(w.Env.DataDir, "environment.json"))
	return err == nil && string(g) == oldToken && serr == nil
}

func (w *world) call(d Deps, in In) Out {
	w.T.Helper()
	out := d.handle(context.Background(), w.Env, in)
	if err := testkit.CheckOutput(New(DefaultDeps()), out); err != nil {
		w.T.Errorf("result does not conform to the output schema: %v\n%+v", err, out)
	}
	return out
}

// echo is the identity a plan's execute_arguments echo, where a plan says it.
func echo(p Out) tools.Identity {
	return p.ExecuteArguments.Identity
}

func TestPlan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		source, exe string
		tail        []string
	}{
		{"", "winget", []string{"install", "--id", "Git.Git", "--exact", "--source", "winget", "--accept-package-agreements", "--accept-source-agreements", "--disable-interactivity"}},
		{"chocolatey", "choco", []string{"install", "Git.Git", "-y"}},
		{"scoop", "scoop", []string{"install", "Git.Git"}},
	}
	for _, tt := range tests {
		t.Run(tt.exe, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			exe := w.fake(tt.exe, pmtest.Config{})
			id, err := proc.Fingerprint(exe)
			if err != nil {
				t.Fatal(err)
			}
			out := w.call(DefaultDeps(), In{PackageID: "Git.Git", Source: tt.source})
			argv := append([]string{exe}, tt.tail...)
			kind, sha := string(id.Kind), id.SHA256
			src := tt.source
			if src == "" {
				src = "winget"
			}
			// The identity is in execute_arguments only (issue 24: said once).
			want := Out{Status: tools.Status{Status: "planned"}, Plan: &Plan{PackageID: "Git.Git", Source: src, Action: "install", SafetyClass: "approval-required",
				Argv: argv, Verify: Verify},
				ExecuteArguments: &In{PackageID: "Git.Git", Source: src, Action: "install", Execute: true, Identity: tools.Identity{
					ExpectedExecutable: exe, ExpectedExecutableIdentityKind: kind, ExpectedExecutableIdentitySHA: sha}}}
			if d := cmp.Diff(want, out); d != "" {
				t.Errorf("plan (-want +got):\n%s", d)
			}
			if _, ran := w.Ran(); ran || !w.cacheIntact() {
				t.Errorf("planning ran the manager (%v) or touched the cache (intact %v)", ran, w.cacheIntact())
			}
		})
	}
}

func TestPlanNotInstalled(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	out := w.call(DefaultDeps(), In{PackageID: "Git.Git"})
	if out.Status.Status != "planned" || out.Executable != nil || out.ExecutableResolved == nil || *out.ExecutableResolved || out.ExecutableIdentitySHA256 != nil ||
		out.Argv[0] != "winget" || out.ExecutionStarted || out.ExecuteArguments != nil {
		t.Errorf("plan = %+v %+v", out.Status, out.Plan)
	}
	out = w.call(DefaultDeps(), In{PackageID: "Git.Git", Execute: true, Identity: tools.Identity{ExpectedExecutable: "/x"}})
	if out.Status.Status != "unavailable" || out.Error != "winget is not installed" || out.EnvironmentCacheInvalidated != nil || !w.cacheIntact() {
		t.Errorf("execute = %+v", out)
	}
}

func TestIdentityUnavailable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake("winget", pmtest.Config{})
	d := DefaultDeps()
	d.Fingerprint = func(string) (proc.Identity, error) { return proc.Identity{}, errors.New("denied") }
	for _, execute := range []bool{false, true} {
		out := w.call(d, In{PackageID: "Git.Git", Execute: execute})
		if out.Status.Status != "unavailable" || out.Error != "Package-manager executable identity could not be established" || out.ExecutionStarted {
			t.Errorf("execute=%v: %+v", execute, out)
		}
	}
	if _, ran := w.Ran(); ran || !w.cacheIntact() {
		t.Error("ran or invalidated")
	}
}

func TestInvalidIDs(t *testing.T) {
	t.Parallel()
	ids := []string{"--force", "a b", "x;rm", "-v", "", strings.Repeat("a", 257), ".hidden", "a/b", `a\b`, "é", "a\x00b", "a|b", "$(x)", "a\nb"}
	for _, id := range ids {
		for _, execute := range []bool{false, true} {
			w := newWorld(t)
			exe := w.fake("winget", pmtest.Config{})
			fp, _ := proc.Fingerprint(exe)
			out := w.call(DefaultDeps(), In{PackageID: id, Execute: execute, Identity: tools.Identity{ExpectedExecutable: exe,
				ExpectedExecutableIdentityKind: string(fp.Kind), ExpectedExecutableIdentitySHA: fp.SHA256}})
			want := Out{Status: tools.Status{Status: "invalid_input", Error: "package_id contains unsupported characters"}}
			if d := cmp.Diff(want, out); d != "" {
				t.Errorf("id %q execute %v (-want +got):\n%s", id, execute, d)
			}
			if _, ran := w.Ran(); ran || !w.cacheIntact() {
				t.Errorf("id %q: ran or invalidated", id)
			}
		}
	}
	w := newWorld(t)
	if out := w.call(DefaultDeps(), In{PackageID: "A" + strings.Repeat("._+-9", 51)}); out.Status.Status != "planned" {
		t.Errorf("256-character id: %+v", out.Status)
	}
}

func TestExecuteCompleted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ source, exe string }{{"winget", "winget"}, {"chocolatey", "choco"}, {"scoop", "scoop"}} {
		t.Run(tt.exe, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake(tt.exe, pmtest.Config{RequireInvalidated: true, Fixture: ""})
			p := w.call(DefaultDeps(), In{PackageID: "Contoso.App", Source: tt.source})
			var req proc.Request
			d := DefaultDeps()
			d.Run = func(ctx context.Context, r proc.Request) proc.Receipt { req = r; return proc.Run(ctx, r) }
			// The plan's execute_arguments, passed back unchanged, are the executing call.
			out := w.call(d, *p.ExecuteArguments)
			if out.Status.Status != "completed" || !out.ExecutionStarted || !out.Succeeded || out.EnvironmentCacheInvalidated == nil || !*out.EnvironmentCacheInvalidated {
				t.Fatalf("out = %+v receipt %+v", out.Status, out.Receipt)
			}
			rep, ran := w.Ran()
			if !ran {
				t.Fatal("the fake never ran")
			}
			if d := cmp.Diff(p.Argv, rep.Argv); d != "" {
				t.Errorf("argv received (-plan +got):\n%s", d)
			}
			// The fake looked before doing anything: new token, no snapshot.
			if !rep.GenerationPresent || rep.Generation == oldToken || len(rep.Generation) != 32 || rep.SnapshotPresent {
				t.Errorf("cache at installer start: %+v", rep)
			}
			if req.Timeout != 600*time.Second || req.Expected == nil || req.Expected.SHA256 != p.ExecuteArguments.ExpectedExecutableIdentitySHA || req.Dir != w.Bin {
				t.Errorf("request timeout %s expected %+v dir %s", req.Timeout, req.Expected, req.Dir)
			}
			if out.Verify == "" || !strings.Contains(out.Verify, "env_inspect") || !strings.Contains(out.Verify, "force_refresh") || !strings.Contains(out.Verify, "tool_discover") {
				t.Errorf("verify hint = %q", out.Verify)
			}
		})
	}
}

func TestExecuteFailedStillInvalidates(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.fake("winget", pmtest.Config{RequireInvalidated: true, Exit: 3})
	p := w.call(DefaultDeps(), In{PackageID: "Contoso.App"})
	out := w.call(DefaultDeps(), In{PackageID: "Contoso.App", Execute: true, Identity: echo(p)})
	if out.Status.Status != "failed" || !out.ExecutionStarted || out.ReturnCode == nil || *out.ReturnCode != 3 ||
		out.EnvironmentCacheInvalidated == nil || !*out.EnvironmentCacheInvalidated || w.cacheIntact() {
		t.Errorf("out = %+v receipt %+v", out.Status, out.Receipt)
	}
}

func TestEchoRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		edit   func(*tools.Identity, string)
		status string
	}{
		{"missing executable", func(e *tools.Identity, _ string) { e.ExpectedExecutable = "" }, "invalid_input"},
		{"other executable", func(e *tools.Identity, other string) { e.ExpectedExecutable = other }, "stale_plan"},
		{"missing kind", func(e *tools.Identity, _ string) { e.ExpectedExecutableIdentityKind = "" }, "invalid_input"},
		{"short sha", func(e *tools.Identity, _ string) {
			e.ExpectedExecutableIdentitySHA = e.ExpectedExecutableIdentitySHA[:40]
		}, "invalid_input"},
		{"other kind", func(e *tools.Identity, _ string) { e.ExpectedExecutableIdentityKind = "app_execution_alias" }, "stale_plan"},
		{"other sha", func(e *tools.Identity, _ string) { e.ExpectedExecutableIdentitySHA = strings.Repeat("0", 64) }, "stale_plan"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake("winget", pmtest.Config{})
			other := w.fake("choco", pmtest.Config{})
			p := w.call(DefaultDeps(), In{PackageID: "Contoso.App"})
			e := echo(p)
			tt.edit(&e, other)
			out := w.call(DefaultDeps(), In{PackageID: "Contoso.App", Execute: true, Identity: e})
			if out.Status.Status != tt.status || out.Error == "" || out.ExecutionStarted || out.EnvironmentCacheInvalidated != nil || out.Plan == nil {
				t.Errorf("out = %+v", out)
			}
			if _, ran := w.Ran(); ran || !w.cacheIntact() {
				t.Error("ran or invalidated")
			}
		})
	}
}

func TestIdentityChangedBetweenPlanAndExecute(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	exe := w.fake("winget", pmtest.Config{})
	p := w.call(DefaultDeps(), In{PackageID: "Contoso.App"})
	if err := touch(exe); err != nil {
		t.Fatal(err)
	}
	for _, in := range []In{{PackageID: "Contoso.App", Execute: true, Identity: echo(p)}, *p.ExecuteArguments} {
		out := w.call(DefaultDeps(), in)
		if out.Status.Status != "stale_plan" || out.ExecutionStarted || out.EnvironmentCacheInvalidated != nil || !strings.Contains(out.Error, "no longer matches") {
			t.Errorf("out = %+v", out)
		}
	}
	if _, ran := w.Ran(); ran || !w.cacheIntact() {
		t.Error("the fake ran or the cache was invalidated")
	}
}

func TestIdentityChangedAtSpawn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	exe := w.fake("winget", pmtest.Config{})
	p := w.call(DefaultDeps(), In{PackageID: "Contoso.App"})
	d := DefaultDeps()
	// The bytes change after the echo check and the invalidation, right before the
	// sealed spawn: the runner's seal must refuse.
	d.Run = func(ctx context.Context, r proc.Request) proc.Receipt {
		if err := touch(exe); err != nil {
			t.Fatal(err)
		}
		return proc.Run(ctx, r)
	}
	out := w.call(d, In{PackageID: "Contoso.App", Execute: true, Identity: echo(p)})
	if out.Status.Status != "stale_plan" || out.ExecutionStarted || out.Receipt == nil || !out.IdentityMismatch ||
		out.EnvironmentCacheInvalidated == nil || !*out.EnvironmentCacheInvalidated {
		t.Errorf("out = %+v receipt %+v", out.Status, out.Receipt)
	}
	if _, ran := w.Ran(); ran {
		t.Error("the fake ran")
	}
}

func TestInvalidationFailureRefusesToStart(t *testing.T) {
	t.Parallel()
	injected := DefaultDeps()
	injected.Invalidate = func(string) error { return errors.New("lock held") }
	for _, tt := range []struct {
		name string
		d    Deps
		data func(w *world) string
	}{
		{"data dir below a file", DefaultDeps(), func(w *world) string {
			f := filepath.Join(filepath.Dir(w.Env.DataDir), "plain-file")
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				w.T.Fatal(err) // the subtest's T: this runs on the subtest's goroutine
			}
			return filepath.Join(f, "data")
		}},
		{"injected", injected, func(w *world) string { return w.Env.DataDir }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.fake("winget", pmtest.Config{})
			p := w.call(DefaultDeps(), In{PackageID: "Contoso.App"})
			w.Env.DataDir = tt.data(w)
			out := w.call(tt.d, In{PackageID: "Contoso.App", Execute: true, Identity: echo(p)})
			if out.Status.Status != "failed" || out.ExecutionStarted || out.EnvironmentCacheInvalidated == nil || *out.EnvironmentCacheInvalidated ||
				!strings.Contains(out.Error, "cache") || !strings.Contains(out.Error, "installer was not started") || out.Receipt != nil {
				t.Errorf("out = %+v", out)
			}
			if _, ran := w.Ran(); ran {
				t.Error("the installer started")
			}
		})
	}
}

func TestTimeoutKillsTree(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	pidFile := filepath.Join(t.TempDir(), "grandchild.pid")
	w.fake("winget", pmtest.Config{Mode: "hang", GrandchildPID: pidFile})
	p := w.call(DefaultDeps(), In{PackageID: "Contoso.App"})
	d := DefaultDeps()
	d.Timeout = time.Second
	out := w.call(d, In{PackageID: "Contoso.App", Execute: true, Identity: echo(p)})
	if out.Status.Status != "failed" || !out.ExecutionStarted || !out.TimedOut || out.EnvironmentCacheInvalidated == nil || !*out.EnvironmentCacheInvalidated {
		t.Fatalf("out = %+v receipt %+v", out.Status, out.Receipt)
	}
	if !out.OutputCaptureComplete {
		t.Error("capture incomplete: a descendant kept stdout open past the timeout")
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if pid, _ := strconv.Atoi(string(b)); pid <= 0 || !pmtest.Gone(pid, 5*time.Second) {
		t.Errorf("grandchild %s survived", b)
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args tools.Args
		want tools.Class
	}{
		{tools.Args{}, tools.ReadOnly},
		{tools.Args{"execute": false}, tools.ReadOnly},
		{tools.Args{"execute": "true"}, tools.ReadOnly},
		{tools.Args{"execute": true}, tools.ApprovalRequired},
	}
	for _, tt := range tests {
		if got := New(DefaultDeps()).Classify(tt.args); got != tt.want {
			t.Errorf("Classify(%v) = %s, want %s", tt.args, got, tt.want)
		}
	}
}
