package runtime

import (
	"context"
	"time"

	"github.com/windows-dev-agent/wda/schema"
)

// Host is the seam a host adapter (host/claude, host/codex, host/generic) fills: how
// the project argument of a call is bound and what the host is told at initialize.
type Host interface {
	Name() string
	// Instructions is sent as the initialize instructions ("" for none).
	Instructions() string
	// AdvertisedSchema may adjust a tool's input schema for tools/list (Codex marks the
	// project argument required). It must not mutate s; return s when unchanged.
	AdvertisedSchema(t Tool, s *schema.Schema) *schema.Schema
	// Bind validates and normalises the project argument of a call to t, rewriting args
	// and env in place. A *BindError is answered as an invalid_input tool result; the
	// handler does not run.
	Bind(ctx context.Context, t Tool, args map[string]any, env *Env) error
}

// BindError is a refusal of the host binding, shown to the caller as invalid_input.
type BindError struct{ Msg string }

func (e *BindError) Error() string { return e.Msg }

// GenericHost binds nothing: project arguments are used as given.
type GenericHost struct{}

func (GenericHost) Name() string                                             { return "generic" }
func (GenericHost) Instructions() string                                     { return "" }
func (GenericHost) AdvertisedSchema(_ Tool, s *schema.Schema) *schema.Schema { return s }
func (GenericHost) Bind(context.Context, Tool, map[string]any, *Env) error   { return nil }

// CallRecord is what the audit sink learns of one finished tools/call: derived facts
// only. Args are deliberately absent; Result is the structured output, for deriving
// status and outcome, never for storing.
type CallRecord struct {
	Tool      string
	Class     Class
	Host      string
	SessionID string
	DataDir   string
	Started   time.Time
	Duration  time.Duration
	// Execute reports whether the arguments asked for execution (execute:true).
	Execute bool
	// Result is the structured tool result (nil when the call ended in a protocol error).
	Result map[string]any
	// ProtocolError is set when the call was answered with a JSON-RPC error.
	ProtocolError bool
}

// AuditSink receives every finished call. It must not fail the call: errors are its
// own to swallow.
type AuditSink interface {
	RecordCall(ctx context.Context, rec CallRecord)
}
