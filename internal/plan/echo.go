package plan

import (
	"strings"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// Statuses of a refused echo.
const (
	InvalidInput = "invalid_input"
	StalePlan    = "stale_plan"
)

// Rule names the echo rule a refusal broke, so a tool that words its own errors can
// do so without repeating the checks.
type Rule int

// The echo rules, in the order CheckEcho applies them.
const (
	// EchoMissing: expected_executable is missing or blank (invalid_input).
	EchoMissing Rule = iota + 1
	// EchoPathChanged: it does not name the file resolved now (stale_plan).
	EchoPathChanged
	// EchoMalformed: the echoed kind or sha256 is missing or malformed (invalid_input).
	EchoMalformed
	// EchoIdentityChanged: the echoed kind or sha256 differs from now (stale_plan).
	EchoIdentityChanged
)

// Refusal is why an execute call must not run: Status is invalid_input or stale_plan,
// Rule the rule that refused it.
type Refusal struct {
	Status string
	Error  string
	Rule   Rule
}

// CheckEcho applies the plan-first echo rules, in this order:
//  1. expected_executable missing or blank → invalid_input;
//  2. it does not name the same file as resolved (proc.SamePath) → stale_plan;
//  3. the echoed kind or sha256 is missing or malformed → invalid_input;
//  4. the echoed kind differs from current's, or the sha256 differs
//     (case-insensitively) → stale_plan.
//
// resolved is the executable the tool resolved now; current its identity now. On
// success it returns nil and the identity to seal the run to (sha256 lowercased).
func CheckEcho(echo tools.Identity, resolved string, current proc.Identity) (*proc.Identity, *Refusal) {
	return CheckEchoWith(proc.SamePath, echo, resolved, current)
}

// CheckEchoWith is CheckEcho with the path comparison of rule 2 supplied
// (proc.SamePath in production), so an engine whose tests use fake paths still
// applies these rules rather than a copy of them.
func CheckEchoWith(samePath func(a, b string) bool, echo tools.Identity, resolved string, current proc.Identity) (*proc.Identity, *Refusal) {
	if strings.TrimSpace(echo.ExpectedExecutable) == "" {
		return nil, &Refusal{InvalidInput, "expected_executable is required when execute is true: pass the reviewed execute:false plan's execute_arguments back unchanged", EchoMissing}
	}
	if !samePath(echo.ExpectedExecutable, resolved) {
		return nil, &Refusal{StalePlan, "Resolved executable no longer matches the reviewed plan (now " + resolved + "); request a new execute:false plan", EchoPathChanged}
	}
	kind, sha := echo.ExpectedExecutableIdentityKind, echo.ExpectedExecutableIdentitySHA
	if !proc.ValidIdentity(kind, sha) {
		return nil, &Refusal{InvalidInput, "expected_executable_identity_kind must be file, app_execution_alias or powershell_script and expected_executable_identity_sha256 must be 64 hexadecimal characters, as the reviewed plan's execute_arguments carry them", EchoMalformed}
	}
	want := proc.Identity{Kind: proc.IdentityKind(kind), SHA256: strings.ToLower(sha)}
	if !want.Equal(current) {
		return nil, &Refusal{StalePlan, "Executable identity no longer matches the reviewed plan: " + resolved + " changed since it was reviewed; request a new execute:false plan", EchoIdentityChanged}
	}
	return &want, nil
}

// ChangedAtSpawn reports whether a run was refused because the sealed executable (or
// its interpreter) no longer had the expected identity when it was about to start:
// the plan went stale between the echo check and the spawn.
func ChangedAtSpawn(r proc.Receipt) bool {
	return !r.ExecutionStarted && (r.IdentityMismatch || r.RuntimeIdentityMismatch)
}
