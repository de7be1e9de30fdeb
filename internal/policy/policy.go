package policy

import (
	"fmt"
	"time"

	"github.com/windows-dev-agent/wda/tools"
)

// Policy is a parsed policy document (docs/policy.md, "Schema"). A nil pointer or
// an empty value means the setting is absent and restricts nothing.
type Policy struct {
	DisabledTools       []string
	DeniedCapabilities  []string
	AllowedCapabilities *[]string // nil: every capability
	MaxExecuteClass     tools.Class
	RefuseExtraArgs     bool
	ProjectTasks        string // "", "allow", "ask" or "deny"
	Packages            Packages
	Sandbox             Sandbox
	Audit               Audit
}

// Packages are package_install's settings.
type Packages struct {
	AllowedIDs     *[]string
	AllowedSources *[]string
	AllowUninstall *bool
}

// Sandbox are sandbox_run's settings.
type Sandbox struct {
	AllowedRoutes *[]string
}

// Audit are the audit export's settings.
type Audit struct {
	OTLP *OTLP
}

// OTLP is where the audit log is exported (docs/policy.md, "audit"). A field left
// empty (zero Timeout) is not set by the policy.
type OTLP struct {
	Endpoint string
	Protocol string // "http/protobuf" or "grpc"
	Headers  map[string]string
	Timeout  time.Duration
}

// State is the policy in force in this process: none, a policy, or a policy that
// does not parse (Err), which fails closed.
type State struct {
	// Source names where the policy was read (a registry key or a file path); empty
	// when no source exists.
	Source string
	// SHA256 is the hex SHA-256 of the bytes read: the file's, or for a registry key
	// its canonical encoding (docs/policy.md, "Hash"); empty when Sources.Hash is nil.
	SHA256 string
	Policy *Policy
	// Err is why the policy in Source could not be used; non-nil means fail closed.
	Err error
}

// InForce reports whether a policy source exists (parsed or not).
func (s *State) InForce() bool { return s != nil && s.Source != "" }

// Summary is the one line the server's instructions and wda doctor give about the
// policy in force (docs/policy.md, "What is shown"); empty when there is none.
func (s *State) Summary() string {
	switch {
	case !s.InForce():
		return ""
	case s.Err != nil:
		return fmt.Sprintf("A managed policy is in force (source %s, sha256 %s) but cannot be used, so calls that would execute are refused: %v", s.Source, s.SHA256, s.Err)
	}
	return fmt.Sprintf("A managed policy is in force (source %s, sha256 %s): calls it refuses answer blocked.", s.Source, s.SHA256)
}
