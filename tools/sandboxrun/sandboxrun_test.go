package sandboxrun

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
	"github.com/windows-dev-agent/wda/tools/sandboxrun/internal/payload"
)

// fixture is a workspace, a data dir, fake Windows-owned binaries and recording fakes
// for every process start.
type fixture struct {
	t         *testing.T
	ws        string
	env       *tools.Env
	bins      map[string]string
	route     discovery.RouteState
	cli       string // devcontainer CLI path, "" when not installed
	mu        sync.Mutex
	runs      []proc.Request
	launchs   []proc.Request
	receipt   proc.Receipt
	launchErr error
	done      chan struct{}
	removed   chan string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ws, bin := t.TempDir(), t.TempDir()
	ws, _ = filepath.EvalSymlinks(ws)
	f := &fixture{t: t, ws: ws, bins: map[string]string{}, route: discovery.RouteState{Available: ptr(true), DefaultDistribution: "Ubuntu", Reason: "ok"},
		done: make(chan struct{}), removed: make(chan string, 4)}
	f.env = &tools.Env{DataDir: filepath.Join(t.TempDir(), "data"), ProjectDir: ws, Getenv: func(string) string { return "" },
		Project: testkit.Project(t, ws)} // as the pipeline binds it
	for _, name := range []string{wslExe, sandboxExe, "devcontainer"} {
		p := filepath.Join(bin, name)
		if isWindows && filepath.Ext(name) == "" {
			p += ".exe" // the runner refuses extensionless targets on Windows
		}
		if err := os.WriteFile(p, []byte("binary "+name), 0o755); err != nil {
			t.Fatal(err)
		}
		f.bins[name] = p
	}
	f.cli = f.bins["devcontainer"]
	one := 0
	f.receipt = proc.Receipt{Succeeded: true, ReturnCode: &one, Stdout: "hi\n", ExecutionStarted: true, OutputCaptureComplete: true, OutputCaptureSettled: true}
	return f
}

func ptr[T any](v T) *T { return &v }

func (f *fixture) Deps() Deps {
	d := DefaultDeps()
	d.WslRoute = func() discovery.RouteState { return f.route }
	d.SystemBinary = func(name string) (string, error) {
		if p, ok := f.bins[name]; ok {
			return p, nil
		}
		return "", fs.ErrNotExist
	}
	d.Resolve = func(_ *tools.Env, name string) (string, bool) {
		return f.cli, name == "devcontainer" && f.cli != ""
	}
	d.Run = func(_ context.Context, req proc.Request) proc.Receipt {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.runs = append(f.runs, req)
		r := f.receipt
		r.Argv = req.Argv
		return r
	}
	d.Launch = func(req proc.Request) (*proc.Launched, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.launchs = append(f.launchs, req)
		if f.launchErr != nil {
			return nil, f.launchErr
		}
		return &proc.Launched{PID: 4242, Done: f.done}, nil
	}
	d.RemoveBundle = func(dir string) error {
		err := payload.Remove(dir)
		f.removed <- dir
		return err
	}
	return d
}

// call runs the handler and checks the result against the advertised output schema.
func (f *fixture) call(in In) Out {
	f.t.Helper()
	out := f.Deps().handle(context.Background(), f.env, in)
	b, err := json.Marshal(out)
	if err != nil {
		f.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		f.t.Fatal(err)
	}
	if err := testkit.CheckOutput(New(DefaultDeps()), m); err != nil {
		f.t.Fatalf("result does not match the output schema: %v\n%s", err, b)
	}
	return out
}

func (f *fixture) started() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.runs) + len(f.launchs)
}

func (f *fixture) bundles() []string {
	entries, _ := os.ReadDir(filepath.Join(f.env.DataDir, payload.RunsDir))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func (f *fixture) files(m map[string]string) {
	for name, content := range m {
		p := filepath.Join(f.ws, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
}

// echo is the identity triple of a plan, as its execute_arguments carry it.
func echo(o Out) tools.Identity {
	return o.ExecuteArguments.Identity
}

// TestWorkspaceBoundByPipeline: the workspace is the project argument, so the pipeline
// binds (and refuses) it before the handler runs.
func TestWorkspaceBoundByPipeline(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tool := New(f.Deps())
	for _, c := range []struct{ folder, errHas string }{
		{"missing", "Not a directory"},
		{filepath.Join(string(filepath.Separator), "no", "such", "dir"), "workspace_folder must stay inside the project"},
	} {
		m, _ := mcptest.Call(t, tool, f.env, tools.Args{"command": "x", "isolation_requirement": reqLinux, "workspace_folder": c.folder})
		if m["status"] != "invalid_input" || !strings.Contains(m["error"].(string), c.errHas) {
			t.Errorf("workspace_folder %q: %v, want invalid_input containing %q", c.folder, m, c.errHas)
		}
	}
	if f.started() != 0 {
		t.Fatal("a refused call started something")
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(f *fixture)
		in      In
		status  string
		errHas  string
		envEcho string
	}{
		{"blank command", nil, In{Command: "  ", IsolationRequirement: reqLinux}, "invalid_input", "command is required", ""},
		{"NUL in command", nil, In{Command: "a\x00b", IsolationRequirement: reqLinux}, "invalid_input", "NUL", ""},
		{"missing requirement", nil, In{Command: "x"}, "invalid_input", "isolation_requirement is required for every sandbox_run request", "auto"},
		{"missing requirement, explicit backend", nil, In{Command: "x", Environment: envWSL}, "invalid_input", "isolation_requirement is required", "wsl"},
		{"unsupported requirement", nil, In{Command: "x", IsolationRequirement: "vibes"}, "invalid_input", "not supported", "auto"},
		{"explicit mismatch", nil, In{Command: "x", IsolationRequirement: reqUntrusted, Environment: envWSL}, "invalid_input", "required backend is windows_sandbox", "wsl"},
		{"explicit mismatch wsl", nil, In{Command: "x", IsolationRequirement: reqLinux, Environment: envDevContainer}, "invalid_input", "required backend is wsl", "dev_container"},
		{"WSL route unknown", func(f *fixture) { f.route = discovery.RouteState{Reason: "registry unreadable"} },
			In{Command: "x", IsolationRequirement: reqLinux}, "unknown", "registry unreadable", "auto"},
		{"WSL route false", func(f *fixture) {
			f.route = discovery.RouteState{Available: ptr(false), Reason: "Windows policy disables WSL"}
		},
			In{Command: "x", IsolationRequirement: reqLinux}, "unavailable", "Windows policy disables WSL", "auto"},
		{"WSL exe missing", func(f *fixture) { delete(f.bins, wslExe) },
			In{Command: "x", IsolationRequirement: reqLinux}, "unavailable", "WSL executable is not available", "auto"},
		{"bare .devcontainer folder", func(f *fixture) { f.files(map[string]string{".devcontainer/": ""}) },
			In{Command: "x", IsolationRequirement: reqReproduce}, "unavailable", "configured Dev Container", "auto"},
		{"devcontainer.json is a folder", func(f *fixture) { f.files(map[string]string{".devcontainer/devcontainer.json/": ""}) },
			In{Command: "x", IsolationRequirement: reqReproduce}, "unavailable", "configured Dev Container", "auto"},
		{"config but no CLI", func(f *fixture) { f.files(map[string]string{".devcontainer.json": "{}"}); f.cli = "" },
			In{Command: "x", IsolationRequirement: reqReproduce}, "unavailable", "configured Dev Container and devcontainer CLI", "auto"},
		{"Sandbox missing", func(f *fixture) { delete(f.bins, sandboxExe); f.files(map[string]string{"p.txt": "p"}) },
			In{Command: "x", IsolationRequirement: reqUntrusted, PayloadPaths: []string{"p.txt"}}, "unavailable", "WindowsSandbox.exe", "auto"},
		{"untrusted without payload", nil, In{Command: "x", IsolationRequirement: reqUntrusted}, "invalid_input", "payload_paths is required for every untrusted_windows request", "windows_sandbox"},
		{"payload on WSL", func(f *fixture) { f.files(map[string]string{"p.txt": "p"}) },
			In{Command: "x", IsolationRequirement: reqLinux, PayloadPaths: []string{"p.txt"}}, "invalid_input", "only valid for untrusted_windows", "wsl"},
		{"payload escape", nil, In{Command: "x", IsolationRequirement: reqUntrusted, PayloadPaths: []string{"../x"}}, "invalid_input", "must stay inside the workspace", "windows_sandbox"},
		{"payload overlap", func(f *fixture) { f.files(map[string]string{"a/b.txt": "b"}) },
			In{Command: "x", IsolationRequirement: reqUntrusted, PayloadPaths: []string{"a", "a/b.txt"}}, "invalid_input", "overlap", "windows_sandbox"},
		{"executable vanished", func(f *fixture) { f.bins[wslExe] = filepath.Join(f.ws, "gone.exe") },
			In{Command: "x", IsolationRequirement: reqLinux}, "unavailable", "is not available", "wsl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.setup != nil {
				tc.setup(f)
			}
			tc.in.Execute = true // refusals come before any execution either way
			out := f.call(tc.in)
			if out.Status.Status != tc.status || !strings.Contains(out.Error, tc.errHas) {
				t.Fatalf("got %s %q, want %s containing %q", out.Status.Status, out.Error, tc.status, tc.errHas)
			}
			if out.ExecutionStarted || f.started() != 0 || len(f.bundles()) != 0 {
				t.Fatalf("a refusal started something: %+v, bundles %v", out, f.bundles())
			}
			if out.Environment != tc.envEcho {
				t.Fatalf("environment = %q, want %q", out.Environment, tc.envEcho)
			}
			if out.Plan != nil {
				t.Fatalf("a refusal carries a plan: %+v", out.Plan)
			}
		})
	}
}

func TestPlans(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		setup   func(f *fixture)
		in      In
		backend string
		argv    func(f *fixture) []string
		kind    string
	}{
		{"WSL", nil, In{Command: "make test", IsolationRequirement: reqLinux}, envWSL,
			func(f *fixture) []string {
				return []string{f.bins[wslExe], "--cd", f.ws, "--", "sh", "-lc", "make test"}
			}, "captured"},
		{"WSL explicit", nil, In{Command: "uname -a", IsolationRequirement: reqLinux, Environment: envWSL}, envWSL,
			func(f *fixture) []string {
				return []string{f.bins[wslExe], "--cd", f.ws, "--", "sh", "-lc", "uname -a"}
			}, "captured"},
		{"Dev Container (folder config)", func(f *fixture) { f.files(map[string]string{".devcontainer/devcontainer.json": "{}"}) },
			In{Command: "npm test", IsolationRequirement: reqReproduce}, envDevContainer,
			func(f *fixture) []string {
				return []string{f.bins["devcontainer"], "exec", "--workspace-folder", f.ws, "sh", "-lc", "npm test"}
			}, "captured"},
		{"Dev Container (root config)", func(f *fixture) { f.files(map[string]string{".devcontainer.json": "{}"}) },
			In{Command: "npm test", IsolationRequirement: reqReproduce}, envDevContainer,
			func(f *fixture) []string {
				return []string{f.bins["devcontainer"], "exec", "--workspace-folder", f.ws, "sh", "-lc", "npm test"}
			}, "captured"},
		{"Windows Sandbox", func(f *fixture) { f.files(map[string]string{"app/run.exe": "MZ", "data.txt": "d"}) },
			In{Command: `app\run.exe data.txt`, IsolationRequirement: reqUntrusted, PayloadPaths: []string{"app", "data.txt"}}, envWindowsSandbox,
			func(f *fixture) []string { return []string{f.bins[sandboxExe], "<generated-on-execute>.wsb"} }, "interactive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.setup != nil {
				tc.setup(f)
			}
			out := f.call(tc.in)
			if out.Status.Status != "planned" || out.Error != "" || out.ExecutionStarted {
				t.Fatalf("status %s %q", out.Status.Status, out.Error)
			}
			id, err := proc.Fingerprint(tc.argv(f)[0])
			if err != nil {
				t.Fatal(err)
			}
			kind := tc.kind
			payloads := tc.in.PayloadPaths
			if payloads == nil {
				payloads = []string{}
			}
			// The identity is said once, in execute_arguments.
			want := &Plan{ProjectDir: f.ws, PayloadPaths: payloads, SafetyClass: "approval-required",
				Argv: tc.argv(f), LaunchKind: kind, ConfigMaterializedOnExecute: tc.backend == envWindowsSandbox}
			if diff := cmp.Diff(want, out.Plan); diff != "" {
				t.Fatalf("plan (-want +got):\n%s", diff)
			}
			wantID := tools.Identity{ExpectedExecutable: tc.argv(f)[0], ExpectedExecutableIdentityKind: string(id.Kind), ExpectedExecutableIdentitySHA: id.SHA256}
			if out.ExecuteArguments == nil || out.ExecuteArguments.Identity != wantID {
				t.Fatalf("execute_arguments %+v, want the identity %+v", out.ExecuteArguments, wantID)
			}
			if out.Environment != tc.backend || out.IsolationRequirement != tc.in.IsolationRequirement {
				t.Fatalf("environment %s, requirement %s", out.Environment, out.IsolationRequirement)
			}
			if f.started() != 0 || len(f.bundles()) != 0 {
				t.Fatalf("planning started a process or created a bundle: %v", f.bundles())
			}
			if _, err := os.Stat(filepath.Join(f.env.DataDir, payload.RunsDir)); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("planning touched sandbox-runs: %v", err)
			}
		})
	}
}

// TestPlanJSON pins the wire names of a plan.
func TestPlanJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.files(map[string]string{"p.txt": "p"})
	out := f.call(In{Command: "x", IsolationRequirement: reqUntrusted, PayloadPaths: []string{"p.txt"}})
	b, _ := json.Marshal(out)
	var m map[string]any
	json.Unmarshal(b, &m)
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	want := []string{"argv", "config_materialized_on_execute", "environment", "execute_arguments", "execution_started",
		"isolation_requirement", "launch_kind", "payload_paths", "project_dir", "safety_class", "status"}
	slices.Sort(keys)
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Fatalf("plan keys (-want +got):\n%s", diff)
	}
}

func TestDevContainerConfigLink(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.files(map[string]string{"real.json": "{}"})
	// runtimetest.Symlink checks the effect: under Wine os.Symlink reports success
	// without creating anything.
	if !testkit.Symlink(filepath.Join(f.ws, "real.json"), filepath.Join(f.ws, ".devcontainer.json")) {
		t.Skip("symbolic links cannot be created here (Wine's CreateSymbolicLinkW is a stub)")
	}
	out := f.call(In{Command: "x", IsolationRequirement: reqReproduce})
	if out.Status.Status != "invalid_input" || !strings.Contains(out.Error, "reparse point") {
		t.Fatalf("got %s %q, want invalid_input mentioning reparse point", out.Status.Status, out.Error)
	}
}

func TestEcho(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	plan := f.call(In{Command: "x", IsolationRequirement: reqLinux})
	other := filepath.Join(t.TempDir(), "other.exe")
	os.WriteFile(other, []byte("other"), 0o755)
	good := echo(plan)
	tests := []struct {
		name   string
		mutate func(*tools.Identity)
		status string
	}{
		{"missing echo", func(e *tools.Identity) { *e = tools.Identity{} }, "invalid_input"},
		{"different path", func(e *tools.Identity) { e.ExpectedExecutable = other }, "stale_plan"},
		{"missing identity", func(e *tools.Identity) { e.ExpectedExecutableIdentityKind, e.ExpectedExecutableIdentitySHA = "", "" }, "invalid_input"},
		{"malformed sha", func(e *tools.Identity) { e.ExpectedExecutableIdentitySHA = strings.Repeat("z", 64) }, "invalid_input"},
		{"different sha", func(e *tools.Identity) { e.ExpectedExecutableIdentitySHA = strings.Repeat("0", 64) }, "stale_plan"},
	}
	// Serial subtests: they share f (its recorded starts, and f.t is this test's T).
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := good
			tc.mutate(&e)
			out := f.call(In{Command: "x", IsolationRequirement: reqLinux, Execute: true, Identity: e})
			if out.Status.Status != tc.status || out.ExecutionStarted || f.started() != 0 {
				t.Fatalf("got %s %q started=%v", out.Status.Status, out.Error, out.ExecutionStarted)
			}
			if out.Plan == nil {
				t.Fatal("echo refusals carry the plan fields")
			}
		})
	}
}

// TestExecuteArgumentsStale: the plan's execute_arguments carry the reviewed
// identity, so after the backend executable changed they are refused, not run.
func TestExecuteArgumentsStale(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	plan := f.call(In{Command: "x", IsolationRequirement: reqLinux})
	if plan.ExecuteArguments == nil {
		t.Fatal("a plan without execute_arguments")
	}
	if err := os.WriteFile(plan.ExecuteArguments.ExpectedExecutable, []byte("changed"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := f.call(*plan.ExecuteArguments)
	if out.Status.Status != "stale_plan" || out.ExecutionStarted || f.started() != 0 {
		t.Fatalf("got %s %q started=%v", out.Status.Status, out.Error, out.ExecutionStarted)
	}
}

func TestExecuteCaptured(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		receipt func(r *proc.Receipt)
		status  string
		started bool
	}{
		{"completed", func(*proc.Receipt) {}, "completed", true},
		{"failed exit", func(r *proc.Receipt) { r.Succeeded = false; r.ReturnCode = ptr(3) }, "failed", true},
		{"spawn failure", func(r *proc.Receipt) {
			*r = proc.Receipt{Error: "Process could not be started: boom"}
		}, "failed", false},
		{"identity changed at spawn", func(r *proc.Receipt) {
			*r = proc.Receipt{Error: "identity mismatch", IdentityMismatch: true}
		}, "stale_plan", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			tc.receipt(&f.receipt)
			plan := f.call(In{Command: "ls -la", IsolationRequirement: reqLinux})
			want := In{Command: "ls -la", IsolationRequirement: reqLinux, Execute: true, Identity: echo(plan)}
			if diff := cmp.Diff(&want, plan.ExecuteArguments); diff != "" {
				t.Fatalf("execute_arguments (-want +got):\n%s", diff)
			}
			// The plan's execute_arguments, passed back unchanged, are the executing call.
			out := f.call(In(*plan.ExecuteArguments))
			if out.Status.Status != tc.status || out.ExecutionStarted != tc.started {
				t.Fatalf("got %s started=%v (%q)", out.Status.Status, out.ExecutionStarted, out.Error)
			}
			if len(f.runs) != 1 {
				t.Fatalf("runs = %d", len(f.runs))
			}
			req := f.runs[0]
			// The working directory is handed over as the bound workspace's handle.
			if req.DirHandle == nil || filepath.Base(req.DirHandle.Name()) != "." {
				t.Errorf("DirHandle = %v, want the bound workspace opened", req.DirHandle)
			}
			req.DirHandle = nil
			wantReq := proc.Request{Argv: plan.Argv, Dir: f.ws, Timeout: 600 * time.Second,
				Expected: &proc.Identity{Kind: proc.IdentityKind(plan.ExecuteArguments.ExpectedExecutableIdentityKind), SHA256: plan.ExecuteArguments.ExpectedExecutableIdentitySHA}}
			if diff := cmp.Diff(wantReq, req); diff != "" {
				t.Fatalf("request (-want +got):\n%s", diff)
			}
			if out.Receipt == nil || out.Stdout != f.receipt.Stdout || out.Error != f.receipt.Error {
				t.Fatalf("receipt not merged: %+v", out)
			}
		})
	}
}

func TestExecuteSandbox(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.files(map[string]string{"app/tool.exe": "MZ", "in.txt": "input"})
	in := In{Command: `app\tool.exe in.txt`, IsolationRequirement: reqUntrusted, PayloadPaths: []string{"app", "in.txt"}}
	plan := f.call(in)
	in.Execute, in.Identity = true, echo(plan)
	out := f.call(in)
	if out.Status.Status != "launched" || !out.ExecutionStarted || out.PID != 4242 || !out.CleanupManaged || out.Error != "" {
		t.Fatalf("got %+v", out)
	}
	if diff := cmp.Diff([]string{f.bins[sandboxExe], "<managed-config>.wsb"}, out.Argv); diff != "" {
		t.Fatalf("displayed argv (-want +got):\n%s", diff)
	}
	if len(f.launchs) != 1 {
		t.Fatalf("launches = %d", len(f.launchs))
	}
	req := f.launchs[0]
	if diff := cmp.Diff([]string{f.bins[sandboxExe], filepath.Join(out.CleanupPath, payload.ConfigFile)}, req.Argv); diff != "" {
		t.Fatalf("launch argv (-want +got):\n%s", diff)
	}
	if req.Dir != f.ws || req.Expected == nil || req.Expected.SHA256 != plan.ExecuteArguments.ExpectedExecutableIdentitySHA {
		t.Fatalf("launch request %+v", req)
	}
	for _, p := range []string{payload.MarkerFile, payload.ConfigFile, "share/run.cmd", "share/payload/app/tool.exe", "share/payload/in.txt"} {
		if _, err := os.Stat(filepath.Join(out.CleanupPath, filepath.FromSlash(p))); err != nil {
			t.Fatalf("bundle lacks %s: %v", p, err)
		}
	}
	// The bundle stays while Sandbox runs and goes when it exits.
	select {
	case dir := <-f.removed:
		t.Fatalf("bundle %s removed while Sandbox was running", dir)
	default:
	}
	close(f.done)
	if dir := <-f.removed; dir != out.CleanupPath {
		t.Fatalf("removed %s, want %s", dir, out.CleanupPath)
	}
	if _, err := os.Stat(out.CleanupPath); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("bundle still there after exit: %v", err)
	}
}

func TestExecuteSandboxFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		setup     func(f *fixture)
		status    string
		cleanedUp bool
		launched  int
	}{
		{"staging fails", func(f *fixture) {
			os.MkdirAll(filepath.Dir(f.env.DataDir), 0o755)
			os.WriteFile(f.env.DataDir, []byte("a file, not a folder"), 0o644)
		}, "failed", false, 0},
		{"spawn fails", func(f *fixture) {
			f.launchErr = &proc.LaunchError{Receipt: proc.Receipt{Error: "Process could not be started: boom"}}
		}, "failed", true, 1},
		{"identity changed at spawn", func(f *fixture) {
			f.launchErr = &proc.LaunchError{Receipt: proc.Receipt{Error: "identity mismatch", IdentityMismatch: true}}
		}, "stale_plan", true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.files(map[string]string{"p.txt": "p"})
			in := In{Command: "type p.txt", IsolationRequirement: reqUntrusted, PayloadPaths: []string{"p.txt"}}
			plan := f.call(in)
			tc.setup(f)
			in.Execute, in.Identity = true, echo(plan)
			out := f.call(in)
			if out.Status.Status != tc.status || out.ExecutionStarted || out.CleanupPerformed != tc.cleanedUp || out.Error == "" {
				t.Fatalf("got %+v", out)
			}
			if len(f.launchs) != tc.launched || out.CleanupPath != "" || out.PID != 0 {
				t.Fatalf("launches %d, result %+v", len(f.launchs), out)
			}
			if n := f.bundles(); len(n) != 0 {
				t.Fatalf("bundle left behind: %v", n)
			}
		})
	}
}

// TestOffWindowsDefaults: with the real authorities, the Windows-owned routes answer
// unavailable off Windows.
func TestOffWindowsDefaults(t *testing.T) {
	t.Parallel()
	if isWindows {
		t.Skip("the real routes exist on Windows")
	}
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "p.txt"), nil, 0o644)
	env := &tools.Env{DataDir: t.TempDir(), ProjectDir: ws, Getenv: func(string) string { return "" }, Project: testkit.Project(t, ws)}
	for _, in := range []In{
		{Command: "x", IsolationRequirement: reqLinux},
		{Command: "x", IsolationRequirement: reqUntrusted, PayloadPaths: []string{"p.txt"}},
	} {
		out := DefaultDeps().handle(context.Background(), env, in)
		if out.Status.Status != "unavailable" {
			t.Fatalf("%s: %+v", in.IsolationRequirement, out)
		}
	}
}

// TestForbiddenCommand (issue 22 §1, "Through this server's own tools"): a command the
// shell classifier forbids makes the execution forbidden, so the pipeline blocks it
// with the reviewed identity echoed and nothing starts; its plan says forbidden and
// offers no executing call; the handler refuses it on its own too. An ordinary
// command keeps approval-required.
func TestForbiddenCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		command, req string
		forbidden    bool
	}{
		{"rm -rf /mnt/c/Windows/System32", reqLinux, true},
		{"cmd.exe /c format D:", reqLinux, true},
		{"/mnt/c/Windows/System32/cmd.exe /c 'format D: /q'", reqLinux, true},
		{"format C: /q", reqReproduce, true},
		{"ls -la && make test", reqLinux, false},
	} {
		t.Run(c.command, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.files(map[string]string{".devcontainer.json": "{}"})
			tool := New(f.Deps())
			args := tools.Args{"command": c.command, "isolation_requirement": c.req}
			plan, _ := mcptest.Call(t, tool, f.env, args)
			want := "approval-required"
			if c.forbidden {
				want = "forbidden"
			}
			if plan["status"] != "planned" || plan["safety_class"] != want {
				t.Fatalf("plan %v, want planned %s", plan, want)
			}
			if _, offered := plan["execute_arguments"]; offered == c.forbidden {
				t.Fatalf("plan offers execute_arguments: %v, want %v", offered, !c.forbidden)
			}
			// The identity is where the plan says it: in execute_arguments when it offers
			// them, else (a forbidden plan, for review only) in the plan.
			said := map[string]any(plan)
			if ea, ok := plan["execute_arguments"].(map[string]any); ok {
				said = map[string]any{"executable": ea["expected_executable"], "executable_identity_kind": ea["expected_executable_identity_kind"],
					"executable_identity_sha256": ea["expected_executable_identity_sha256"]}
			}
			exec := tools.Args{"execute": true, "expected_executable": said["executable"],
				"expected_executable_identity_kind":   said["executable_identity_kind"],
				"expected_executable_identity_sha256": said["executable_identity_sha256"]}
			for k, v := range args {
				exec[k] = v
			}
			if got := tool.Classify(exec); (got == tools.Forbidden) != c.forbidden {
				t.Fatalf("classified %s", got)
			}
			m, _ := mcptest.Call(t, tool, f.env, exec)
			if c.forbidden != (m["status"] == "blocked") || f.started() != map[bool]int{true: 0, false: 1}[c.forbidden] {
				t.Fatalf("execute: %v, %d started", m, f.started())
			}
			if !c.forbidden {
				return
			}
			// The handler's own guard, without the pipeline.
			in := In{Command: c.command, IsolationRequirement: c.req, Execute: true, Identity: tools.Identity{
				ExpectedExecutable: plan["executable"].(string), ExpectedExecutableIdentityKind: plan["executable_identity_kind"].(string),
				ExpectedExecutableIdentitySHA: plan["executable_identity_sha256"].(string)}}
			if out := f.call(in); out.Status.Status != "blocked" || out.Error != ErrForbidden || f.started() != 0 {
				t.Fatalf("handler: %+v, %d started", out.Status, f.started())
			}
		})
	}
}
