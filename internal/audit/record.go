package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/tools"
)

// SchemaVersion is the record format version written into every new record.
const SchemaVersion = 1

// Lifecycle events. Hooks use the host's event names; the MCP server uses EventToolCall.
const (
	EventPreToolUse         = "PreToolUse"
	EventPostToolUse        = "PostToolUse"
	EventPostToolUseFailure = "PostToolUseFailure"
	EventPermissionRequest  = "PermissionRequest"
	EventToolCall           = "tools/call"
)

// Execution outcomes (docs/audit.md, "Outcome"): the only five legal values.
const (
	Succeeded     = "succeeded"
	Failed        = "failed"
	Unknown       = "unknown"
	NotExecuted   = "not_executed"
	NotApplicable = "not_applicable"
)

// Permission decisions a hook may record. HostDefault means the hook left the decision
// to the host's own policy.
const (
	DecisionAllow       = "allow"
	DecisionDeny        = "deny"
	DecisionAsk         = "ask"
	DecisionHostDefault = "host-default"
)

// TimeLayout is the ts format: UTC, fixed microsecond precision, "Z" suffix. Fixed width
// keeps equal records equal in length, which the rotation tests rely on.
const TimeLayout = "2006-01-02T15:04:05.000000Z07:00"

// Record is one audit line. Field names are the JSON contract of docs/audit.md; only
// derived metadata has a field here, so arguments, commands, paths, output and error
// text cannot be stored by construction.
//
// Pointer fields distinguish "not established" (nil) from false/zero. The first block is
// always written (null when nil); the rest are omitted when unset.
type Record struct {
	SchemaVersion    int     `json:"schema_version"`
	TS               string  `json:"ts"`
	LifecycleEvent   string  `json:"lifecycle_event"`
	LifecycleSuccess *bool   `json:"lifecycle_success"`
	Event            string  `json:"event"`
	Success          *bool   `json:"success"`
	ExecutionStarted *bool   `json:"execution_started"`
	ExecutionOutcome string  `json:"execution_outcome"`
	ResultStatus     *string `json:"result_status"`

	SessionID          string   `json:"session_id,omitempty"`
	AgentID            string   `json:"agent_id,omitempty"`
	AgentType          string   `json:"agent_type,omitempty"`
	ToolName           string   `json:"tool_name,omitempty"`
	ToolUseID          string   `json:"tool_use_id,omitempty"`
	DurationMS         *float64 `json:"duration_ms,omitempty"`
	ErrorPresent       *bool    `json:"error_present,omitempty"`
	PermissionDenied   *bool    `json:"permission_denied,omitempty"`
	PermissionDecision string   `json:"permission_decision,omitempty"`
	SafetyClass        string   `json:"safety_class,omitempty"`
	Host               string   `json:"host,omitempty"`
	// Caller is the name of the bearer token a remote client presented to
	// `wda serve --http` (never the token itself); absent over stdio and in hook records
	// (docs/audit.md, docs/remote.md).
	Caller string `json:"caller,omitempty"`

	// What the call acted on, only when it names an entry of the catalog in force or an
	// id the package manager itself printed for the call (docs/audit.md, "Subject and
	// refusal"): never a free-form argument.
	Capability string `json:"capability,omitempty"`
	PackageID  string `json:"package_id,omitempty"`
	// Why a refused call was refused: the argument and the rule it broke
	// (invalid_input, stale_plan), or the class that blocked it. Words of closed
	// vocabularies only: anything else is left out.
	RefusalField string `json:"refusal_field,omitempty"`
	RefusalRule  string `json:"refusal_rule,omitempty"`
}

// Refusal rules: the words refusal_rule may hold besides a safety class (which names
// what blocked a call). docs/audit.md, "Subject and refusal".
const (
	RuleRequired        = "required"         // a required argument is missing
	RuleUnknownArgument = "unknown_argument" // an argument the tool does not take
	RuleType            = "type"             // the wrong JSON type
	RuleEnum            = "enum"             // not one of the allowed values
	RulePattern         = "pattern"          // does not match the argument's pattern
	RuleLength          = "length"           // too long, too short, empty or blank
	RuleRange           = "range"            // a number out of bounds
	RuleItems           = "items"            // too many or too few list items
	RuleOutsideProject  = "outside_project"  // a folder outside the project
	RuleChanged         = "changed"          // the reviewed executable or definition changed
	RuleOther           = "other"            // refused for a reason none of these names
)

// refusalRules are the rule words a record keeps.
var refusalRules = map[string]bool{RuleRequired: true, RuleUnknownArgument: true, RuleType: true, RuleEnum: true,
	RulePattern: true, RuleLength: true, RuleRange: true, RuleItems: true, RuleOutsideProject: true, RuleChanged: true,
	RuleOther: true}

// refusalRule is s when it is a refusal rule or a safety class, else "".
func refusalRule(s string) string {
	if refusalRules[s] {
		return s
	}
	if _, ok := tools.ParseClass(s); ok {
		return s
	}
	if policy.IsAuditRule(s) {
		return s
	}
	return ""
}

// packageIdentifier is s when it has the shape of a package id: identifier's
// characters and '+' (Notepad++.Notepad++), else "".
func packageIdentifier(s string) string {
	if identifier(strings.ReplaceAll(s, "+", "_")) == "" {
		return ""
	}
	return s
}

// normalize fills what the writer owns: schema_version, ts, and the lifecycle/legacy
// mirrors (a caller may supply either spelling; both are written).
func (r Record) normalize(now time.Time) Record {
	if r.SchemaVersion == 0 {
		r.SchemaVersion = SchemaVersion
	}
	if r.TS == "" {
		r.TS = now.UTC().Format(TimeLayout)
	}
	if r.LifecycleEvent == "" {
		r.LifecycleEvent = r.Event
	}
	if r.Event == "" {
		r.Event = r.LifecycleEvent
	}
	if r.LifecycleSuccess == nil {
		r.LifecycleSuccess = r.Success
	}
	if r.Success == nil {
		r.Success = r.LifecycleSuccess
	}
	// Identifiers come from hook events, which anything can fill: only values shaped
	// like identifiers are kept, so an event cannot smuggle text into the log through
	// them (docs/audit.md, "What is never stored").
	r.SessionID = identifier(r.SessionID)
	r.Caller = identifier(r.Caller)
	r.AgentID = identifier(r.AgentID)
	r.AgentType = identifier(r.AgentType)
	r.ToolUseID = identifier(r.ToolUseID)
	r.ToolName = identifier(r.ToolName)
	r.Capability = identifier(r.Capability)
	r.PackageID = packageIdentifier(r.PackageID)
	r.RefusalField = identifier(r.RefusalField)
	r.RefusalRule = refusalRule(r.RefusalRule)
	return r
}

// MaxIdentifier bounds an identifier field (session, agent, tool use, tool name).
const MaxIdentifier = 128

// identifier is s when it is 1 to MaxIdentifier bytes of ASCII letters, digits and
// . _ - : @ /, else "" (the field is then left out).
func identifier(s string) string {
	if s == "" || len(s) > MaxIdentifier {
		return ""
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.' || c == '_' || c == '-' || c == ':' || c == '@' || c == '/':
		default:
			return ""
		}
	}
	return s
}

// validate rejects records that would corrupt the enums readers count on.
func (r Record) validate() error {
	switch r.ExecutionOutcome {
	case Succeeded, Failed, Unknown, NotExecuted, NotApplicable:
	default:
		return fmt.Errorf("audit: execution_outcome %q is not one of succeeded, failed, unknown, not_executed, not_applicable", r.ExecutionOutcome)
	}
	if r.LifecycleEvent == "" {
		return fmt.Errorf("audit: lifecycle_event (or event) must be set")
	}
	switch r.PermissionDecision {
	case "", DecisionAllow, DecisionDeny, DecisionAsk, DecisionHostDefault:
	default:
		return fmt.Errorf("audit: permission_decision %q is not one of allow, deny, ask, host-default", r.PermissionDecision)
	}
	if r.ResultStatus != nil && !isStatusWord(*r.ResultStatus) {
		// The value is not echoed: a string that is not a status word may be anything.
		return fmt.Errorf("audit: result_status (%d bytes) is not a status word (1 to %d lowercase ASCII letters, digits or underscores)", len(*r.ResultStatus), MaxStatusWord)
	}
	if r.SafetyClass != "" {
		if _, ok := tools.ParseClass(r.SafetyClass); !ok {
			return fmt.Errorf("audit: safety_class %q is not a known class", r.SafetyClass)
		}
	}
	return nil
}

// checkedLine is r's line once r passes validate.
func (r Record) checkedLine() ([]byte, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	return r.line()
}

// line renders r as one JSON line ending in "\n". HTML escaping is off so non-ASCII and
// <>& are kept as written; encoding/json escapes control characters, so a record can
// never contain a raw newline.
func (r Record) line() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("audit: encoding record: %w", err)
	}
	if buf.Len() > MaxRecordBytes {
		return nil, fmt.Errorf("audit: record is %d bytes, more than the %d-byte limit", buf.Len(), MaxRecordBytes)
	}
	return buf.Bytes(), nil
}
