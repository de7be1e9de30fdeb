package tools

// Identity is the plan-first executable identity echoed from a reviewed plan. Tools that
// can execute embed it in their input so the three fields are spelled once.
type Identity struct {
	ExpectedExecutable             string `json:"expected_executable,omitempty" jsonschema:"maxLength=4096,description=Absolute executable path echoed from the reviewed execute:false plan."`
	ExpectedExecutableIdentityKind string `json:"expected_executable_identity_kind,omitempty" jsonschema:"enum=file,enum=app_execution_alias,enum=powershell_script,description=Identity kind echoed from the reviewed plan."`
	ExpectedExecutableIdentitySHA  string `json:"expected_executable_identity_sha256,omitempty" jsonschema:"minLength=64,maxLength=64,description=SHA-256 fingerprint echoed from the reviewed plan."`
}

// Status is the minimal result every tool can return: a status word, an optional
// error, and whether a process was started. Gate refusals have exactly this shape.
type Status struct {
	Status           string `json:"status" jsonschema:"required"`
	Error            string `json:"error,omitempty"`
	ExecutionStarted bool   `json:"execution_started"`
}

// NotImplementedSuffix ends the error of a tool whose issue has not landed yet.
const NotImplementedSuffix = "not implemented in this build"
