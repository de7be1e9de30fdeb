package sandboxrun

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/sandboxrun/internal/payload"
)

// Display placeholders for the Sandbox config: planned (not yet generated) and
// launched (managed by the runtime; its host path is cleanup_path's business).
const (
	plannedConfig  = "<generated-on-execute>.wsb"
	launchedConfig = "<managed-config>.wsb"
)

// captureTimeout bounds WSL and Dev Container runs (docs/tools/sandbox_run.md).
const captureTimeout = 600 * time.Second

// ErrForbidden is the error of an execution whose command the shell classifier forbids.
const ErrForbidden = "The command is forbidden: the shell classifier forbids it, so sandbox_run never runs it"

// handle is the decision order of docs/tools/sandbox_run.md, steps 1–12.
func (d Deps) handle(ctx context.Context, env *tools.Env, in In) Out {
	fail := func(status, msg string) Out {
		return Out{Status: tools.Status{Status: status, Error: msg}}
	}
	// 1. The command.
	if strings.TrimSpace(in.Command) == "" {
		return fail("invalid_input", "command is required")
	}
	if strings.IndexByte(in.Command, 0) >= 0 {
		return fail("invalid_input", "command must not contain NUL characters")
	}
	// 2. The workspace, bound and held open by the pipeline: every read of it goes
	// through that handle (docs/safety/project-reads.md).
	proj := env.Project
	if proj == nil {
		return fail("failed", "sandbox_run: the workspace directory is not bound")
	}
	ws := proj.Path
	// 3. The route.
	requested := in.Environment
	if requested == "" {
		requested = envAuto
	}
	r, refused := d.route(env, proj, in.IsolationRequirement, requested)
	if refused != nil {
		return Out{Status: *refused, Environment: requested, IsolationRequirement: in.IsolationRequirement}
	}
	routeFail := func(status, msg string) Out {
		o := fail(status, msg)
		o.Environment, o.IsolationRequirement = r.backend, in.IsolationRequirement
		return o
	}
	// 4. Payload validation; 5. payload presence matches the requirement.
	var sel *payload.Selection
	var err error
	if len(in.PayloadPaths) > 0 {
		if sel, err = payload.Validate(proj, in.PayloadPaths); err != nil {
			return routeFail("invalid_input", err.Error())
		}
	}
	switch {
	case r.backend == envWindowsSandbox && sel == nil:
		return routeFail("invalid_input", "payload_paths is required for every untrusted_windows request: name the workspace-relative files and folders the command needs")
	case r.backend != envWindowsSandbox && sel != nil:
		return routeFail("invalid_input", "payload_paths is only valid for untrusted_windows requests (Windows Sandbox)")
	}
	// 6. The argv; the executable must still be there.
	if fi, err := os.Stat(r.exe); err != nil || !fi.Mode().IsRegular() {
		return routeFail("unavailable", fmt.Sprintf("%s is not available", r.exe))
	}
	// 7. The backend's identity.
	id, err := d.Fingerprint(r.exe)
	if err != nil {
		return routeFail("unavailable", fmt.Sprintf("Backend executable identity could not be established: %v", err))
	}
	// 8. The plan, with the class an execution has.
	av := argv(r, ws, in.Command, plannedConfig)
	class := executionClass(in.Command)
	p := &Plan{
		ProjectDir:                  ws,
		PayloadPaths:                append([]string{}, in.PayloadPaths...),
		SafetyClass:                 string(class),
		Executable:                  r.exe,
		ExecutableIdentityKind:      string(id.Kind),
		ExecutableIdentitySHA256:    id.SHA256,
		Argv:                        av,
		LaunchKind:                  "captured",
		ConfigMaterializedOnExecute: r.backend == envWindowsSandbox,
	}
	if r.backend == envWindowsSandbox {
		p.LaunchKind = "interactive"
	}
	out := Out{Status: tools.Status{Status: "planned"}, Environment: r.backend, IsolationRequirement: in.IsolationRequirement, Plan: p}
	// 9. Planning stops here: nothing was created or started. A forbidden command
	// plans (for review) but offers no executing call, and its execution is blocked
	// before any echo, so no echo can run it (through MCP the pipeline has blocked it
	// already; this is the handler's own guard).
	if !in.Execute {
		if class == tools.Forbidden {
			return out
		}
		exec := in
		exec.Execute = true
		exec.Identity = tools.Identity{ExpectedExecutable: r.exe, ExpectedExecutableIdentityKind: string(id.Kind),
			ExpectedExecutableIdentitySHA: id.SHA256}
		out.ExecuteArguments = &exec
		p.Executable, p.ExecutableIdentityKind, p.ExecutableIdentitySHA256 = "", "", "" // said in execute_arguments
		return out
	}
	if class == tools.Forbidden {
		out.Status = tools.Status{Status: tools.StatusBlocked, Error: ErrForbidden}
		return out
	}
	// 10. The identity echo.
	sealed, refusal := plan.CheckEcho(in.Identity, r.exe, id)
	if refusal != nil {
		out.Status = tools.Status{Status: refusal.Status, Error: refusal.Error}
		return out
	}
	// 11. Windows Sandbox: stage, launch, hand the bundle to a waiter.
	if r.backend == envWindowsSandbox {
		return d.launchSandbox(env, ws, in.Command, sel, sealed, out)
	}
	// 12. WSL and Dev Container: a captured, bounded run.
	req := proc.Request{Argv: av, Dir: ws, Timeout: captureTimeout, Expected: sealed, OnProgress: plan.Progress(env.Progress)}
	if env.Project != nil {
		dir, err := env.Project.Dir()
		if err != nil {
			return fail(tools.StatusInvalidInput, "the workspace could not be opened: "+err.Error())
		}
		defer dir.Close()
		req.DirHandle = dir
	}
	rc := d.Run(ctx, req)
	out.Status = plan.Merge(plan.RunStatus(rc), "", rc)
	out.Receipt = plan.FromReceipt(rc)
	return out
}

func (d Deps) launchSandbox(env *tools.Env, ws, command string, sel *payload.Selection, sealed *proc.Identity, out Out) Out {
	// Errors of the sweep only mean some stale bundle stays for the next one.
	_ = d.Sweep(env.DataDir)
	b, err := d.Stage(env.DataDir, sel, command)
	if err != nil {
		out.Status = tools.Status{Status: "failed", Error: err.Error()}
		return out
	}
	l, err := d.Launch(proc.Request{Argv: []string{out.Executable, b.Config}, Dir: ws, Expected: sealed})
	if err != nil {
		rerr := d.RemoveBundle(b.Dir)
		status, msg := "failed", err.Error()
		var le *proc.LaunchError
		if errors.As(err, &le) && plan.ChangedAtSpawn(le.Receipt) {
			status = "stale_plan"
		}
		if msg == "" {
			msg = "Windows Sandbox could not be started"
		}
		if rerr != nil {
			msg += fmt.Sprintf(" (the staged bundle could not be removed: %v)", rerr)
		}
		out.Status = tools.Status{Status: status, Error: msg}
		out.CleanupPerformed = rerr == nil
		return out
	}
	go func(dir string, done <-chan struct{}) {
		<-done
		if err := d.RemoveBundle(dir); err != nil {
			slog.Warn("sandbox_run: bundle not removed after Windows Sandbox exited; the stale sweep will retry", "bundle", dir, "err", err)
		}
	}(b.Dir, l.Done)
	p := *out.Plan
	p.Argv = []string{out.Executable, launchedConfig}
	p.PayloadPaths = slices.Clone(p.PayloadPaths)
	out.Plan = &p
	out.Status = tools.Status{Status: "launched", ExecutionStarted: true}
	out.PID, out.CleanupPath, out.CleanupManaged = l.PID, b.Dir, true
	return out
}
