package schema

import (
	"encoding/json"
	"sync"

	"github.com/windows-dev-agent/wda/tools"
)

// Rendered is everything schema-shaped about one tool, built once: the input and
// output schemas, their compact JSON (what tools/list sends, pre-rendered so the SDK
// never marshals a schema tree) and the input validator.
type Rendered struct {
	In, Out         *Schema
	InJSON, OutJSON json.RawMessage
	Validator       *Validator
}

var rendered sync.Map // tools.Tool -> func() *Rendered

// Of returns t's rendered schemas, reflecting them on first use: a hook process that
// never serves t pays nothing.
func Of(t tools.Tool) *Rendered {
	if r, ok := rendered.Load(t); ok {
		return r.(func() *Rendered)()
	}
	r, _ := rendered.LoadOrStore(t, sync.OnceValue(func() *Rendered {
		in := ForType(t.InType())
		out := OutputOf(t.OutType(), t.InType(), t.Statuses())
		return &Rendered{In: in, Out: out, InJSON: Compact(in), OutJSON: Compact(out), Validator: NewValidator(in)}
	}))
	return r.(func() *Rendered)()
}

// In is t's input schema. Callers must not modify it.
func In(t tools.Tool) *Schema { return Of(t).In }

// Out is t's output schema, with its status vocabulary. Callers must not modify it.
func Out(t tools.Tool) *Schema { return Of(t).Out }
