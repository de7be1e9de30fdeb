package capability

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/projecttasks"
	"github.com/windows-dev-agent/wda/tools"
)

// Timeout bounds of a capability run, in seconds.
const (
	DefaultTimeoutSeconds = 120
	MinTimeoutSeconds     = 1
	MaxTimeoutSeconds     = 600
)

// Error texts that are part of the contract.
const (
	ErrForbidden         = "Capability is forbidden"
	ErrIdentityUnknown   = "Executable identity could not be established"
	ErrStaleExecutable   = "Resolved executable no longer matches the reviewed plan"
	ErrStaleIdentity     = "Executable identity no longer matches the reviewed plan"
	ErrChangedAtLaunch   = "Executable identity changed between review and launch; plan again and review the new identity"
	ErrExpectedMissing   = "expected_executable is required when execute is true: pass the reviewed plan's execute_arguments"
	ErrExpectedMalformed = "expected_executable_identity_kind and expected_executable_identity_sha256 are required when execute is true: pass the reviewed plan's execute_arguments (kind file, app_execution_alias or powershell_script; sha256 of 64 hexadecimal characters)"
)

// Engine plans and executes catalog capabilities and project tasks. Every field up
// to SamePath is required.
type Engine struct {
	Catalog  *catalog.Catalog
	Resolver proc.Resolver
	Runner   proc.Runner
	// Fingerprint is proc.Fingerprint in production.
	Fingerprint func(path string) (proc.Identity, error)
	// SamePath is proc.SamePath in production (plan.CheckEchoWith's path rule).
	SamePath func(a, b string) bool
	// GOOS is the system project tasks are read for (projecttasks.Options.GOOS; ""
	// means this one).
	GOOS string
	// Environ is the environment a project task that sets variables of its own
	// (VS Code options.env) gets them added to; nil means os.Environ. A task that sets
	// none inherits the server's environment, as a catalog capability does.
	Environ func() []string
}

// Request is one capability_run call after the project directory is resolved.
type Request struct {
	Capability string
	ExtraArgs  []string
	// Dir is the absolute working directory of the run; DirHandle, when set, is that
	// directory held open, and the run gets it by handle (docs/safety.md).
	Dir       string
	DirHandle *os.File
	Execute   bool
	// Expected is the identity echoed from the reviewed plan.
	Expected tools.Identity
	// TimeoutSeconds is clamped to [1, 600]; zero means 120.
	TimeoutSeconds int
	// Progress, when set, hears how a run is going.
	Progress func(tools.Progress)
	// Project is the bound project directory. A project task (tools.IsProjectTaskID)
	// is read from it and runs in it; a catalog capability does not use it.
	Project *tools.Project
	// ExpectedDefinitionSHA256 is a project task's definition identity echoed from
	// the reviewed plan (its definition_sha256).
	ExpectedDefinitionSHA256 string
}

// SelectTool returns the first tool of cp whose argv[0] resolves, with the absolute
// executable path.
func SelectTool(cp catalog.Capability, r proc.Resolver) (catalog.Tool, string, bool) {
	for _, t := range cp.Tools {
		if path, ok := r.Resolve(t.Argv[0]); ok {
			return t, path, true
		}
	}
	return catalog.Tool{}, "", false
}

// ClampTimeout applies the default and the [1, 600] s bounds.
func ClampTimeout(seconds int) time.Duration {
	switch {
	case seconds == 0:
		seconds = DefaultTimeoutSeconds
	case seconds < MinTimeoutSeconds:
		seconds = MinTimeoutSeconds
	case seconds > MaxTimeoutSeconds:
		seconds = MaxTimeoutSeconds
	}
	return time.Duration(seconds) * time.Second
}

// Run plans req and, when req.Execute is true, executes it. Every refusal before a
// process starts reports execution_started false.
func (e *Engine) Run(ctx context.Context, req Request) Result {
	// A project's own task is read from the project, never looked up in the catalog
	// (tools.IsProjectTaskID).
	if tools.IsProjectTaskID(req.Capability) {
		return e.runTask(ctx, req)
	}
	// 2. Unknown id.
	cp, ok := e.Catalog.Get(req.Capability)
	if !ok {
		ids := e.Catalog.IDs()
		slices.Sort(ids)
		res := Result{Status: tools.Status{Status: "unknown_capability",
			Error: fmt.Sprintf("Unknown capability: %s", req.Capability)},
			Capability: req.Capability, Available: ids}
		// What the project itself declares is as much a choice as the catalog (issue 23
		// §1: project tasks appear wherever capabilities do).
		if req.Project != nil {
			set, _ := projecttasks.Read(req.Project, projecttasks.Options{GOOS: e.GOOS})
			for _, t := range set.Tasks {
				res.ProjectTasks = append(res.ProjectTasks, t.ID)
			}
		}
		return res
	}
	res := Result{Capability: cp.ID, Description: cp.Description}

	// 3. Tool selection.
	tool, exe, ok := SelectTool(cp, e.Resolver)
	if !ok {
		res.Status = tools.Status{Status: "unavailable",
			Error: fmt.Sprintf("None of the configured tools of %s is installed: %s", cp.ID, strings.Join(cp.ToolNames(), ", "))}
		res.SafetyClass = cp.Safety
		res.CheckedTools = cp.ToolNames()
		return res
	}

	// 4. extra_args are literal argv elements; an empty one is never meaningful. A
	// definition identity belongs to project tasks only.
	if msg := checkExtraArgs(req.ExtraArgs); msg != "" {
		return invalid(res, msg)
	}
	if req.ExpectedDefinitionSHA256 != "" {
		return invalid(res, ErrDefinitionNotTask)
	}

	// 5. Effective class, argv, identity, plan.
	class := EffectiveClass(cp, req.ExtraArgs)
	argv := append(append([]string{exe}, tool.Argv[1:]...), req.ExtraArgs...)
	res.BaseSafetyClass = cp.Safety
	if why, ok := scriptForbidden(req.Project, e.GOOS, tool.Argv); ok {
		class = tools.Forbidden
		res.SafetyReason = why
	}
	res.SafetyClass = class
	res.Plan = &Plan{Tool: tool.Name, Executable: exe, Argv: argv, Command: plan.Command(argv),
		RequiresHostApproval: RequiresHostApproval(class)}
	id, err := e.Fingerprint(exe)
	// 6. Identity not establishable.
	if err != nil || !id.Valid() {
		res.Status = tools.Status{Status: "unavailable", Error: ErrIdentityUnknown}
		return res
	}
	res.ExecutableIdentityKind = id.Kind
	res.ExecutableIdentitySHA256 = strings.ToLower(id.SHA256)

	// 7. Not executing: the plan.
	if !req.Execute {
		res.Status = tools.Status{Status: "planned"}
		return res
	}
	// 8. Forbidden, before any echo check.
	if class == tools.Forbidden {
		res.Status = tools.Status{Status: "blocked", Error: ErrForbidden}
		return res
	}
	// 9. Identity echo (the rules of plan.CheckEcho, in capability_run's words).
	seal, refusal := plan.CheckEchoWith(e.SamePath, req.Expected, exe, id)
	if refusal != nil {
		res.Status = tools.Status{Status: refusal.Status, Error: echoError(refusal)}
		return res
	}
	// 10. cwd.
	if fi, err := os.Stat(req.Dir); req.Dir == "" || err != nil || !fi.IsDir() {
		return invalid(res, "Not a directory: "+req.Dir)
	}
	// 11. Run, sealed to the reviewed identity.
	rc := e.Runner.Run(ctx, proc.Request{Argv: slices.Clone(argv), Dir: req.Dir, DirHandle: req.DirHandle,
		Timeout: ClampTimeout(req.TimeoutSeconds), Expected: seal, OnProgress: plan.Progress(req.Progress)})
	return merge(res, rc)
}

// checkExtraArgs is the refusal of extra arguments that cannot be argv elements, or "".
func checkExtraArgs(extra []string) string {
	for i, a := range extra {
		if a == "" {
			return fmt.Sprintf("extra_args[%d] must be a non-empty string", i)
		}
		if strings.ContainsRune(a, 0) {
			return fmt.Sprintf("extra_args[%d] must not contain a NUL character", i)
		}
	}
	return ""
}

// echoError is capability_run's error text for a refused echo.
func echoError(r *plan.Refusal) string {
	switch r.Rule {
	case plan.EchoMissing:
		return ErrExpectedMissing
	case plan.EchoPathChanged:
		return ErrStaleExecutable
	case plan.EchoMalformed:
		return ErrExpectedMalformed
	case plan.EchoIdentityChanged:
		return ErrStaleIdentity
	}
	return r.Error
}

// merge applies the receipt over the plan, then the status over both.
func merge(res Result, rc proc.Receipt) Result {
	res.Receipt = plan.FromReceipt(rc)
	if len(rc.Argv) > 0 {
		res.Argv = slices.Clone(rc.Argv)
	}
	switch status := plan.RunStatus(rc); status {
	case tools.StatusStalePlan:
		res.Status = plan.Merge(status, ErrChangedAtLaunch, rc)
	default:
		res.Status = plan.Merge(status, "", rc)
	}
	return res
}

func invalid(res Result, msg string) Result {
	res.Status = tools.Status{Status: "invalid_input", Error: msg}
	return res
}
