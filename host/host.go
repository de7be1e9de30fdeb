package host

import (
	"context"

	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// Host is the seam a host adapter (host/claude, host/codex, host/generic) fills: how
// the project argument of a call is bound and what the host is told at initialize.
type Host interface {
	Name() string
	// Instructions is sent as the initialize instructions ("" for none).
	Instructions() string
	// AdvertisedSchema may adjust a tool's input schema for tools/list (Codex marks the
	// project argument required). It must not mutate s; return s when unchanged.
	AdvertisedSchema(t tools.Tool, s *schema.Schema) *schema.Schema
	// Bind validates and normalises the project argument of a call to t, rewriting args
	// and env in place. A *BindError is answered as an invalid_input tool result; the
	// handler does not run.
	Bind(ctx context.Context, t tools.Tool, args map[string]any, env *tools.Env) error
}

// BindError is a refusal of the host binding, shown to the caller as invalid_input.
type BindError struct{ Msg string }

func (e *BindError) Error() string { return e.Msg }

// Generic binds nothing: project arguments are used as given.
type Generic struct{}

func (Generic) Name() string                                                   { return "generic" }
func (Generic) Instructions() string                                           { return "" }
func (Generic) AdvertisedSchema(_ tools.Tool, s *schema.Schema) *schema.Schema { return s }
func (Generic) Bind(context.Context, tools.Tool, map[string]any, *tools.Env) error {
	return nil
}
