package capability_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/catalog"
	rplan "github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/capability"
)

const testCatalog = `
look: {description: Look around., safety: read-only, tags: [eyes], tools: [{name: looker, argv: [looker, --all]}]}
lint: {description: Lint it., safety: reversible, tools: [{name: first, argv: [first, check]}, {name: second, argv: [second, "."]}]}
ship: {description: Ship it., safety: approval-required, tools: [{name: shipper, argv: [shipper, go]}]}
nuke: {description: Destroy it., safety: forbidden, tools: [{name: nuker, argv: [nuker]}]}
ghost: {description: Never installed., safety: reversible, tools: [{name: gone1, argv: [gone1]}, {name: gone2, argv: [gone2]}]}
`

var shaA = strings.Repeat("ab", 32)

// fakeResolver resolves names listed in paths.
type fakeResolver map[string]string

func (f fakeResolver) Resolve(name string) (string, bool) { p, ok := f[name]; return p, ok }

// fakeRunner records requests and answers with a fixed receipt.
type fakeRunner struct {
	receipt proc.Receipt
	got     []proc.Request
}

func (f *fakeRunner) Run(_ context.Context, req proc.Request) proc.Receipt {
	f.got = append(f.got, req)
	r := f.receipt
	if r.Argv == nil {
		r.Argv = req.Argv
	}
	return r
}

func code(n int) *int { return &n }

func okReceipt() proc.Receipt {
	return proc.Receipt{Succeeded: true, ReturnCode: code(0), Stdout: "fine\n", ExecutionStarted: true,
		OutputCaptureComplete: true, OutputCaptureSettled: true}
}

func echo(path string) tools.Identity {
	return tools.Identity{ExpectedExecutable: path, ExpectedExecutableIdentityKind: "file", ExpectedExecutableIdentitySHA: shaA}
}

func newEngine(t *testing.T, runner *fakeRunner, fpErr error) *capability.Engine {
	t.Helper()
	cat, err := catalog.Load([]byte(testCatalog))
	if err != nil {
		t.Fatal(err)
	}
	return &capability.Engine{
		Catalog: cat,
		Resolver: fakeResolver{"looker": "/bin/looker", "first": "/opt/first", "second": "/opt/second",
			"shipper": "/usr/bin/shipper", "nuker": "/sbin/nuker"},
		Runner: runner,
		Fingerprint: func(path string) (proc.Identity, error) {
			if fpErr != nil {
				return proc.Identity{}, fpErr
			}
			return proc.Identity{Kind: proc.KindFile, SHA256: shaA}, nil
		},
		SamePath: func(a, b string) bool { return a == b },
	}
}

func plan(tool, exe string, argv []string, approval bool) *capability.Plan {
	return &capability.Plan{Tool: tool, Executable: exe, ExecutableIdentityKind: proc.KindFile,
		ExecutableIdentitySHA256: shaA, Argv: argv, Command: strings.Join(argv, " "), RequiresHostApproval: approval}
}

func TestEngine(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		req     capability.Request
		fpErr   error
		receipt proc.Receipt
		want    capability.Result
		runs    int
	}{
		{name: "unknown capability", req: capability.Request{Capability: "fly"},
			want: capability.Result{Status: tools.Status{Status: "unknown_capability", Error: "Unknown capability: fly"},
				Capability: "fly", Available: []string{"ghost", "lint", "look", "nuke", "ship"}}},
		{name: "no tool installed", req: capability.Request{Capability: "ghost"},
			want: capability.Result{Status: tools.Status{Status: "unavailable", Error: "None of the configured tools of ghost is installed: gone1, gone2"},
				Capability: "ghost", Description: "Never installed.", SafetyClass: tools.Reversible, CheckedTools: []string{"gone1", "gone2"}}},
		{name: "plan read-only", req: capability.Request{Capability: "look"},
			want: capability.Result{Status: tools.Status{Status: "planned"}, Capability: "look", Description: "Look around.",
				BaseSafetyClass: tools.ReadOnly, SafetyClass: tools.ReadOnly,
				Plan: plan("looker", "/bin/looker", []string{"/bin/looker", "--all"}, false)}},
		{name: "plan prefers first tool", req: capability.Request{Capability: "lint"},
			want: capability.Result{Status: tools.Status{Status: "planned"}, Capability: "lint", Description: "Lint it.",
				BaseSafetyClass: tools.Reversible, SafetyClass: tools.Reversible,
				Plan: plan("first", "/opt/first", []string{"/opt/first", "check"}, true)}},
		{name: "extra args upgrade read-only", req: capability.Request{Capability: "look", ExtraArgs: []string{"--porcelain", "a b"}},
			want: capability.Result{Status: tools.Status{Status: "planned"}, Capability: "look", Description: "Look around.",
				BaseSafetyClass: tools.ReadOnly, SafetyClass: tools.ApprovalRequired,
				Plan: &capability.Plan{Tool: "looker", Executable: "/bin/looker", ExecutableIdentityKind: proc.KindFile, ExecutableIdentitySHA256: shaA,
					Argv: []string{"/bin/looker", "--all", "--porcelain", "a b"}, Command: `/bin/looker --all --porcelain "a b"`, RequiresHostApproval: true}}},
		{name: "extra args upgrade reversible", req: capability.Request{Capability: "lint", ExtraArgs: []string{"-q"}},
			want: capability.Result{Status: tools.Status{Status: "planned"}, Capability: "lint", Description: "Lint it.",
				BaseSafetyClass: tools.Reversible, SafetyClass: tools.ApprovalRequired,
				Plan: plan("first", "/opt/first", []string{"/opt/first", "check", "-q"}, true)}},
		{name: "empty extra arg", req: capability.Request{Capability: "lint", ExtraArgs: []string{"-q", ""}},
			want: capability.Result{Status: tools.Status{Status: "invalid_input", Error: "extra_args[1] must be a non-empty string"},
				Capability: "lint", Description: "Lint it."}},
		{name: "identity unknown", req: capability.Request{Capability: "lint", Execute: true, Expected: echo("/opt/first"), Dir: dir}, fpErr: errors.New("denied"),
			want: capability.Result{Status: tools.Status{Status: "unavailable", Error: capability.ErrIdentityUnknown}, Capability: "lint", Description: "Lint it.",
				BaseSafetyClass: tools.Reversible, SafetyClass: tools.Reversible,
				Plan: &capability.Plan{Tool: "first", Executable: "/opt/first", Argv: []string{"/opt/first", "check"}, Command: "/opt/first check", RequiresHostApproval: true}}},
		{name: "forbidden plan is still a plan", req: capability.Request{Capability: "nuke"},
			want: capability.Result{Status: tools.Status{Status: "planned"}, Capability: "nuke", Description: "Destroy it.",
				BaseSafetyClass: tools.Forbidden, SafetyClass: tools.Forbidden, Plan: plan("nuker", "/sbin/nuker", []string{"/sbin/nuker"}, false)}},
		{name: "forbidden blocked without echo", req: capability.Request{Capability: "nuke", Execute: true, ExtraArgs: []string{"x"}, Dir: dir},
			want: capability.Result{Status: tools.Status{Status: "blocked", Error: capability.ErrForbidden}, Capability: "nuke", Description: "Destroy it.",
				BaseSafetyClass: tools.Forbidden, SafetyClass: tools.Forbidden, Plan: plan("nuker", "/sbin/nuker", []string{"/sbin/nuker", "x"}, false)}},
		{name: "missing echo", req: capability.Request{Capability: "lint", Execute: true, Dir: dir},
			want: executed("invalid_input", capability.ErrExpectedMissing)},
		{name: "blank echo", req: capability.Request{Capability: "lint", Execute: true, Dir: dir, Expected: tools.Identity{ExpectedExecutable: "  "}},
			want: executed("invalid_input", capability.ErrExpectedMissing)},
		{name: "different path", req: capability.Request{Capability: "lint", Execute: true, Dir: dir, Expected: echo("/opt/second")},
			want: executed("stale_plan", capability.ErrStaleExecutable)},
		{name: "missing kind", req: capability.Request{Capability: "lint", Execute: true, Dir: dir,
			Expected: tools.Identity{ExpectedExecutable: "/opt/first", ExpectedExecutableIdentitySHA: shaA}},
			want: executed("invalid_input", capability.ErrExpectedMalformed)},
		{name: "short sha", req: capability.Request{Capability: "lint", Execute: true, Dir: dir,
			Expected: tools.Identity{ExpectedExecutable: "/opt/first", ExpectedExecutableIdentityKind: "file", ExpectedExecutableIdentitySHA: shaA[:62]}},
			want: executed("invalid_input", capability.ErrExpectedMalformed)},
		{name: "non-hex sha", req: capability.Request{Capability: "lint", Execute: true, Dir: dir,
			Expected: tools.Identity{ExpectedExecutable: "/opt/first", ExpectedExecutableIdentityKind: "file", ExpectedExecutableIdentitySHA: strings.Repeat("zz", 32)}},
			want: executed("invalid_input", capability.ErrExpectedMalformed)},
		{name: "different sha", req: capability.Request{Capability: "lint", Execute: true, Dir: dir,
			Expected: tools.Identity{ExpectedExecutable: "/opt/first", ExpectedExecutableIdentityKind: "file", ExpectedExecutableIdentitySHA: strings.Repeat("cd", 32)}},
			want: executed("stale_plan", capability.ErrStaleIdentity)},
		{name: "different kind", req: capability.Request{Capability: "lint", Execute: true, Dir: dir,
			Expected: tools.Identity{ExpectedExecutable: "/opt/first", ExpectedExecutableIdentityKind: "app_execution_alias", ExpectedExecutableIdentitySHA: shaA}},
			want: executed("stale_plan", capability.ErrStaleIdentity)},
		{name: "cwd gone", req: capability.Request{Capability: "lint", Execute: true, Dir: dir + "/missing", Expected: echo("/opt/first")},
			want: executed("invalid_input", "Not a directory: "+dir+"/missing")},
		{name: "completed, uppercase sha accepted", req: capability.Request{Capability: "lint", Execute: true, Dir: dir,
			Expected: tools.Identity{ExpectedExecutable: "/opt/first", ExpectedExecutableIdentityKind: "file", ExpectedExecutableIdentitySHA: strings.ToUpper(shaA)}},
			receipt: okReceipt(), runs: 1,
			want: ran("completed", "", true, &rplan.Receipt{Succeeded: true, ReturnCode: code(0), Stdout: "fine\n",
				OutputCaptureComplete: true, OutputCaptureSettled: true})},
		{name: "approval-required runs when echoed", req: capability.Request{Capability: "ship", Execute: true, Dir: dir, Expected: echo("/usr/bin/shipper")},
			receipt: okReceipt(), runs: 1,
			want: capability.Result{Status: tools.Status{Status: "completed", ExecutionStarted: true}, Capability: "ship", Description: "Ship it.",
				BaseSafetyClass: tools.ApprovalRequired, SafetyClass: tools.ApprovalRequired,
				Plan:    plan("shipper", "/usr/bin/shipper", []string{"/usr/bin/shipper", "go"}, true),
				Receipt: &rplan.Receipt{Succeeded: true, ReturnCode: code(0), Stdout: "fine\n", OutputCaptureComplete: true, OutputCaptureSettled: true}}},
		{name: "spawn failure", req: capability.Request{Capability: "lint", Execute: true, Dir: dir, Expected: echo("/opt/first")},
			receipt: proc.Receipt{Error: "fork/exec: permission denied"}, runs: 1,
			want: ran("failed", "fork/exec: permission denied", false, &rplan.Receipt{})},
		{name: "timeout", req: capability.Request{Capability: "lint", Execute: true, Dir: dir, Expected: echo("/opt/first")},
			receipt: proc.Receipt{ExecutionStarted: true, TimedOut: true, Error: "Process timed out after 120 seconds", OutputCaptureSettled: true}, runs: 1,
			want: ran("failed", "Process timed out after 120 seconds", true, &rplan.Receipt{TimedOut: true, OutputCaptureSettled: true})},
		{name: "nonzero exit", req: capability.Request{Capability: "lint", Execute: true, Dir: dir, Expected: echo("/opt/first")},
			receipt: proc.Receipt{ExecutionStarted: true, ReturnCode: code(3), Stderr: "E1", OutputCaptureComplete: true, OutputCaptureSettled: true}, runs: 1,
			want: ran("failed", "", true, &rplan.Receipt{ReturnCode: code(3), Stderr: "E1", OutputCaptureComplete: true, OutputCaptureSettled: true})},
		{name: "identity changed at launch", req: capability.Request{Capability: "lint", Execute: true, Dir: dir, Expected: echo("/opt/first")},
			receipt: proc.Receipt{IdentityMismatch: true, Error: "identity mismatch"}, runs: 1,
			want: ran("stale_plan", capability.ErrChangedAtLaunch, false, &rplan.Receipt{IdentityMismatch: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runner := &fakeRunner{receipt: tt.receipt}
			got := newEngine(t, runner, tt.fpErr).Run(context.Background(), tt.req)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if len(runner.got) != tt.runs {
				t.Fatalf("runner called %d times, want %d", len(runner.got), tt.runs)
			}
			if tt.runs == 1 {
				r := runner.got[0]
				if r.Dir != dir || r.Timeout != 120*time.Second || r.Argv[0] != got.Executable ||
					r.Expected == nil || *r.Expected != (proc.Identity{Kind: proc.KindFile, SHA256: shaA}) {
					t.Errorf("runner request %+v", r)
				}
			}
		})
	}
}

// executed is a lint execute:true refusal after the plan was built.
func executed(status, msg string) capability.Result {
	return capability.Result{Status: tools.Status{Status: status, Error: msg}, Capability: "lint", Description: "Lint it.",
		BaseSafetyClass: tools.Reversible, SafetyClass: tools.Reversible,
		Plan: plan("first", "/opt/first", []string{"/opt/first", "check"}, true)}
}

func ran(status, msg string, started bool, rf *rplan.Receipt) capability.Result {
	r := executed(status, msg)
	r.ExecutionStarted = started
	r.Receipt = rf
	return r
}

func TestTimeoutClamp(t *testing.T) {
	for in, want := range map[int]time.Duration{0: 120 * time.Second, 1: time.Second, -5: time.Second,
		600: 600 * time.Second, 601: 600 * time.Second, 45: 45 * time.Second} {
		runner := &fakeRunner{receipt: okReceipt()}
		newEngine(t, runner, nil).Run(context.Background(), capability.Request{Capability: "lint", Execute: true,
			Dir: t.TempDir(), Expected: echo("/opt/first"), TimeoutSeconds: in})
		if len(runner.got) != 1 || runner.got[0].Timeout != want {
			t.Errorf("timeout %d: runner got %+v, want %v", in, runner.got, want)
		}
	}
}

func TestEffectiveClass(t *testing.T) {
	t.Parallel()
	git := []catalog.Tool{{Name: "git", Argv: []string{"git", "log"}}}
	cmd := []catalog.Tool{{Name: "cmd", Argv: []string{"cmd"}}}
	wsl := []catalog.Tool{{Name: "wsl", Argv: []string{"wsl", "rm", "-rf"}}}
	pwsh := []catalog.Tool{{Name: "none", Argv: []string{"none"}}, {Name: "pwsh", Argv: []string{"pwsh", "-NoProfile"}}}
	tests := []struct {
		base     tools.Class
		tools    []catalog.Tool
		extra    []string
		want     tools.Class
		approval bool
	}{
		{tools.ReadOnly, git, nil, tools.ReadOnly, false},
		{tools.ReadOnly, git, []string{"x"}, tools.ApprovalRequired, true},
		{tools.Reversible, git, nil, tools.Reversible, true},
		{tools.Reversible, git, []string{"x"}, tools.ApprovalRequired, true},
		{tools.ApprovalRequired, git, nil, tools.ApprovalRequired, true},
		{tools.Forbidden, git, nil, tools.Forbidden, false},
		{tools.Forbidden, git, []string{"x"}, tools.Forbidden, false},
		// Extra arguments that carry a forbidden command (issue 22 §1): on their own,
		// after a shell the catalog starts, after an argv that removes, after any tool.
		{tools.ReadOnly, cmd, []string{"/c", "format", "D:"}, tools.Forbidden, false},
		{tools.Reversible, git, []string{"/c", "format", "D:"}, tools.Forbidden, false},
		{tools.ReadOnly, pwsh, []string{"-Command", "Format-Volume -DriveLetter D"}, tools.Forbidden, false},
		{tools.ApprovalRequired, wsl, []string{"/mnt/c/Windows/System32"}, tools.Forbidden, false},
		{tools.ApprovalRequired, wsl, []string{"/tmp/build"}, tools.ApprovalRequired, true},
	}
	for _, tt := range tests {
		cp := catalog.Capability{ID: "c", Safety: tt.base, Tools: tt.tools}
		got := capability.EffectiveClass(cp, tt.extra)
		if got != tt.want || capability.RequiresHostApproval(got) != tt.approval {
			t.Errorf("EffectiveClass(%s %v, %q) = %s (approval %v), want %s (%v)", tt.base, tt.tools, tt.extra, got,
				capability.RequiresHostApproval(got), tt.want, tt.approval)
		}
	}
}

// TestForbiddenExtraArgsBlocked: the engine's own guard blocks extra arguments that
// carry a forbidden command, before any echo and without starting anything; a plan
// shows the class.
func TestForbiddenExtraArgsBlocked(t *testing.T) {
	t.Parallel()
	runner := &fakeRunner{receipt: okReceipt()}
	e := newEngine(t, runner, nil)
	extra := []string{"/c", "format", "D:"}
	res := e.Run(context.Background(), capability.Request{Capability: "look", ExtraArgs: extra, Dir: t.TempDir()})
	if res.Status.Status != "planned" || res.SafetyClass != tools.Forbidden {
		t.Fatalf("plan: %s %s, want planned forbidden", res.Status.Status, res.SafetyClass)
	}
	res = e.Run(context.Background(), capability.Request{Capability: "look", ExtraArgs: extra, Execute: true,
		Dir: t.TempDir(), Expected: echo("/bin/looker")})
	if res.Status.Status != "blocked" || res.Error != capability.ErrForbidden || res.ExecutionStarted || len(runner.got) != 0 {
		t.Fatalf("execute: %+v, runner %v; want blocked without a start", res.Status, runner.got)
	}
}
