package runtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"time"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/internal/policy/inforce"
	"github.com/windows-dev-agent/wda/tools"
)

// Options configure the tools a server serves. Every field is optional.
type Options struct {
	// Host binds project arguments and says what the host is told at initialize.
	// nil means the generic host contained in ProjectDir.
	Host host.Host
	// DataDir holds the cache, the audit log and sandbox bundles of the tools. When it
	// is set and Audit is nil, every call is recorded in its audit log.
	DataDir string
	// ProjectDir is the active project, handed to handlers as Env.ProjectDir (and the
	// root of the generic host when Host is nil).
	ProjectDir string
	// Getenv is the environment handlers may read (nil means os.Getenv).
	Getenv func(string) string
	// Audit receives one record per finished call; nil means the audit log in DataDir
	// (or none without a DataDir).
	Audit AuditSink
	// Logger receives the server's warnings (nil: warnings and errors to stderr).
	Logger *slog.Logger
	// Now is the clock of audit durations (nil means time.Now).
	Now func() time.Time
	// InCatalog reports whether id is a capability of the catalog in force; an audit
	// record names a call's capability only when it is (docs/audit.md, "Subject and
	// refusal"). nil: no capability is ever named.
	InCatalog func(id string) bool
	// Policy is the managed policy in force (docs/policy.md); nil means the machine's,
	// read once per process (inforce.Current). There is no way to serve without it.
	Policy *policy.State
	// Roots, when set, are the only folders a call's project may be in, whatever the
	// host binds: resolved absolute paths (a remote server's --root; docs/remote.md,
	// "Roots"). The pipeline refuses a project outside all of them.
	Roots []string
}

func (o Options) filled() Options {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Host == nil {
		o.Host = host.NewGeneric(o.ProjectDir, o.Getenv)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if o.Audit == nil && o.DataDir != "" {
		o.Audit = auditLog{logger: o.Logger}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Policy == nil {
		o.Policy = inforce.Current()
	}
	return o
}

// CallRecord is what the audit sink learns of one finished call: derived facts only.
// Arguments are deliberately absent (the pipeline keeps them unexported, to derive the
// subject and refusal fields); Result is the structured output, for deriving status
// and outcome, never for storing.
type CallRecord struct {
	Tool      string
	Class     tools.Class
	Host      string
	SessionID string
	// Caller names the remote client that made the call: the name of its bearer token
	// (never the token), "" over stdio (docs/remote.md, "Authorization").
	Caller   string
	DataDir  string
	Started  time.Time
	Duration time.Duration
	// Execute reports whether the call asked for execution (execute exactly true) of
	// a plan-first tool; PlanFirst whether the tool is one.
	Execute, PlanFirst bool
	// MayStartProcess is the tool's declaration applied to the call's arguments.
	MayStartProcess bool
	// Status is the result's status word, empty when the call ended without a result;
	// Statuses is the tool's declared vocabulary, the only words an audit record keeps.
	Status   string
	Statuses []string
	// Result is the structured result as JSON (nil when the call ended in a protocol
	// error).
	Result json.RawMessage
	// ProtocolError is set when the call was answered with a JSON-RPC error.
	ProtocolError bool
	// Capability and PackageID name what the call acted on, when the id is an entry of
	// the catalog in force (Options.InCatalog) or the package manager printed it for
	// this call; RefusalField and RefusalRule say why a refused call was refused: the
	// argument and the rule, or the class that blocked it (docs/audit.md, "Subject and
	// refusal"). Words of closed vocabularies only, never free-form text.
	Capability, PackageID     string
	RefusalField, RefusalRule string

	// args are the validated arguments and errorText the result's error message, in
	// memory only, for deriving the fields above.
	args      map[string]any
	errorText string
}

// AuditSink receives every finished call. It must not fail the call: errors are its
// own to report.
type AuditSink interface {
	RecordCall(ctx context.Context, rec CallRecord)
}
