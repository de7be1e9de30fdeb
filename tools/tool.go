package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/windows-dev-agent/wda/schema"
)

// Annotations are the MCP tool hints. Every field is decided explicitly by each tool:
// Go cannot tell an unset bool from false, so there are no defaults here.
type Annotations struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Def describes one tool as data. In and Out are the typed input and output; their JSON
// Schemas are generated from them by package schema.
type Def[In, Out any] struct {
	Name        string
	Order       int // position in the registry order (tools/list order of the spec)
	Title       string
	Description string
	Annotations Annotations
	// ProjectArg names the argument that carries the project directory ("cwd",
	// "workspace_folder"), or "" when the tool is not project-scoped.
	ProjectArg string
	// Classify returns the safety class of a call with these (validated) arguments.
	Classify func(Args) Class
	// Handle runs the tool. Domain outcomes go in Out's status; an error return is
	// reserved for the unexpected and becomes a JSON-RPC -32000 error.
	Handle func(ctx context.Context, env *Env, in In) (Out, error)
}

// Tool is a registered tool with its types erased.
type Tool interface {
	Name() string
	Order() int
	Title() string
	Description() string
	Annotations() Annotations
	ProjectArg() string
	InputSchema() *schema.Schema
	OutputSchema() *schema.Schema
	Classify(Args) Class
	// Call decodes validated arguments into In, runs the handler and returns Out.
	Call(ctx context.Context, env *Env, args Args) (any, error)
}

// Define turns a Def into a Tool. It panics on an incomplete definition so a broken
// tool package fails at init in every binary and test.
func Define[In, Out any](d Def[In, Out]) Tool {
	switch {
	case d.Name == "":
		panic("runtime: tool with empty name")
	case d.Description == "":
		panic(fmt.Sprintf("runtime: tool %s has no description", d.Name))
	case d.Classify == nil || d.Handle == nil:
		panic(fmt.Sprintf("runtime: tool %s needs Classify and Handle", d.Name))
	}
	return &tool[In, Out]{def: d,
		in:  sync.OnceValue(schema.For[In]),
		out: sync.OnceValue(schema.For[Out])}
}

// tool reflects its schemas on first use, not at init: hook processes import every tool
// for Classify and must start in milliseconds.
type tool[In, Out any] struct {
	def     Def[In, Out]
	in, out func() *schema.Schema
}

func (t *tool[In, Out]) Name() string                 { return t.def.Name }
func (t *tool[In, Out]) Order() int                   { return t.def.Order }
func (t *tool[In, Out]) Title() string                { return t.def.Title }
func (t *tool[In, Out]) Description() string          { return t.def.Description }
func (t *tool[In, Out]) Annotations() Annotations     { return t.def.Annotations }
func (t *tool[In, Out]) ProjectArg() string           { return t.def.ProjectArg }
func (t *tool[In, Out]) InputSchema() *schema.Schema  { return t.in() }
func (t *tool[In, Out]) OutputSchema() *schema.Schema { return t.out() }
func (t *tool[In, Out]) Classify(a Args) Class        { return t.def.Classify(a) }

func (t *tool[In, Out]) Call(ctx context.Context, env *Env, args Args) (any, error) {
	var in In
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, &schema.ArgError{Msg: err.Error()}
	}
	out, err := t.def.Handle(ctx, env, in)
	if err != nil {
		return nil, err
	}
	return out, nil
}
