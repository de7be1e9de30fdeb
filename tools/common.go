package tools

// Identity is the plan-first executable identity echoed from a reviewed plan. Tools that
// can execute embed it in their input so the three fields are spelled once.
type Identity struct {
	ExpectedExecutable             string `json:"expected_executable,omitempty"`
	ExpectedExecutableIdentityKind string `json:"expected_executable_identity_kind,omitempty"`
	ExpectedExecutableIdentitySHA  string `json:"expected_executable_identity_sha256,omitempty"`
}

// Status is the minimal result every tool can return: a status word, an optional
// error, and whether a process was started. Pipeline refusals have exactly this shape.
type Status struct {
	Status           string `json:"status" jsonschema:"required"`
	Error            string `json:"error,omitempty"`
	ExecutionStarted bool   `json:"execution_started"`
}

// StatusFields returns s. Every Out that embeds Status gets it, so the pipeline reads
// a result's status without encoding it.
func (s Status) StatusFields() Status { return s }

// IsError reports whether a result with this status is an MCP tool error
// (isError: true): exactly when the status is invalid_input, whoever found it (the
// schema, the project binding or the tool itself), because the call as written cannot
// succeed and the model should read the message and correct it. Every other status,
// blocked included, is the tool's answer to a call it understood (docs/architecture.md,
// "The call pipeline"). The pipeline sets isError from this alone, so no tool decides
// it on its own.
func (s Status) IsError() bool { return s.Status == StatusInvalidInput }

// StatusCarrier is what every tool output implements by embedding Status.
type StatusCarrier interface{ StatusFields() Status }

// The statuses the pipeline itself answers with, in every tool's vocabulary, and the
// common domain words tools share. A tool declares the ones it returns.
const (
	StatusInvalidInput       = "invalid_input"
	StatusBlocked            = "blocked"
	StatusPlanned            = "planned"
	StatusCompleted          = "completed"
	StatusFailed             = "failed"
	StatusUnavailable        = "unavailable"
	StatusStalePlan          = "stale_plan"
	StatusConfigurationError = "configuration_error"
	StatusCancelled          = "cancelled"
)

// Refusal is the result of a call refused before or by its handler.
func Refusal(status, msg string) Status { return Status{Status: status, Error: msg} }
