package capability

import (
	"github.com/windows-dev-agent/wda/internal/plan"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/internal/projecttasks"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Result is the capability_run result. Its JSON is one flat object: plan fields, then the
// runner receipt, then status and error (docs/tools/capability_run.md, "Output"). Which
// fields appear depends on the outcome: unknown_capability carries capability and
// available; a capability with no installed tool carries description, safety_class and
// checked_tools; a plan (and everything after it) carries the Plan fields; a run adds the
// receipt fields.
type Result struct {
	tools.Status
	Capability string   `json:"capability,omitempty" jsonschema:"description=The capability id."`
	Available  []string `json:"available,omitempty" jsonschema:"description=Sorted catalog ids (unknown_capability only)."`
	// Description is the catalog's, which the result does not restate (issue 24, "A
	// plan carries exactly what execution needs"), or a project task's, which
	// capability_run reports.
	Description     string      `json:"-"`
	BaseSafetyClass tools.Class `json:"base_safety_class,omitempty" jsonschema:"enum=read-only,enum=reversible,enum=approval-required,enum=forbidden,description=The catalog class of the capability."`
	SafetyClass     tools.Class `json:"safety_class,omitempty" jsonschema:"enum=read-only,enum=reversible,enum=approval-required,enum=forbidden,description=Effective class of this call (extra_args make it approval-required)."`
	CheckedTools    []string    `json:"checked_tools,omitempty" jsonschema:"description=Configured tools of which none is installed (unavailable only)."`
	// ProjectTasks, SafetyReason, Warnings and MoreWarnings are a project task's
	// (docs/tools/capability_run.md, "Project tasks").
	ProjectTasks []string               `json:"project_tasks,omitempty" jsonschema:"description=The tasks the project declares (unknown_capability only)."`
	SafetyReason string                 `json:"safety_reason,omitempty" jsonschema:"description=Why a project task has its class."`
	Warnings     []projecttasks.Warning `json:"warnings,omitempty" jsonschema:"description=What the reader of the task's file skipped (for an unknown task: of the files of its source)."`
	MoreWarnings int                    `json:"more_warnings,omitempty" jsonschema:"description=How many other warnings the reader gave (about other files)."`
	*Plan
	*TaskPlan
	*plan.Receipt
}

// Plan is the reviewed plan of an execute:false call, repeated in every later outcome.
// Its JSON is what execution needs, each once: the executable, its identity and the
// argv (capability_run leaves the executable and its identity to execute_arguments
// when the plan has them). Tool (argv[0]'s configured name), Command (a rendering of argv) and
// RequiresHostApproval (what safety_class says) stay in Go for the engine and its
// callers, out of the result (docs/tools/capability_run.md, "Removed fields").
type Plan struct {
	Tool                     string            `json:"-"`
	Executable               string            `json:"executable,omitempty" jsonschema:"description=Absolute resolved executable; echo it as expected_executable."`
	ExecutableIdentityKind   proc.IdentityKind `json:"executable_identity_kind,omitempty" jsonschema:"enum=file,enum=app_execution_alias,enum=powershell_script,description=Echo as expected_executable_identity_kind."`
	ExecutableIdentitySHA256 string            `json:"executable_identity_sha256,omitempty" jsonschema:"description=Echo as expected_executable_identity_sha256."`
	Argv                     []string          `json:"argv" jsonschema:"description=Exact argv; argv[0] is the absolute executable. Never shell-joined."`
	Command                  string            `json:"-"`
	RequiresHostApproval     bool              `json:"-"`
}

// JSONSchemaExtend keeps the receipt descriptions capability_run publishes;
// plan.Receipt carries none because the other plan-first tools publish none.
func (Result) JSONSchemaExtend(s *schema.Schema) {
	describe := func(name, text string) {
		p, ok := s.Properties.Get(name)
		if !ok {
			panic("capability: Result has no " + name + " property")
		}
		if len(p.OneOf) > 0 { // nullable: the description sits on the non-null branch
			p = p.OneOf[0]
		}
		p.Description = text
	}
	describe("returncode", "Exit code; null when the process never started or its exit was not observed.")
	describe("stdout", "Tail of stdout (at most 8000 bytes).")
	describe("stderr", "Tail of stderr (at most 4000 bytes).")
}
