package tools

import (
	"context"
	"fmt"
	"reflect"
	"slices"
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
// Schemas are generated from them by package schema. Everything another layer needs to
// know about the tool is declared here, never inferred from its name
// (docs/architecture.md).
type Def[In, Out any] struct {
	Name        string
	Order       int // position in the registry order (the order people read)
	Title       string
	Description string
	Annotations Annotations
	// ProjectArg names the argument that carries the project directory ("cwd",
	// "workspace_folder"), or "" when the tool is not project-scoped. The pipeline binds
	// it to an opened directory inside the active project before the handler runs.
	ProjectArg string
	// Classes is the safety classification of a call (docs/safety.md).
	Classes Classification
	// Oracles answer the rules of Classes that consult the catalog (with the catalog
	// the tool runs with) or the shell classifier; empty when Classes has none.
	Oracles Oracles
	// Starts says when a call may start an external process.
	Starts Cond
	// Statuses is the vocabulary of Out's status field, besides the pipeline's own
	// refusals (StatusInvalidInput, StatusBlocked). A handler returning another word is
	// a bug a test catches.
	Statuses []string
	// Handle runs the tool. Domain outcomes go in Out's status; an error return is
	// reserved for the unexpected and becomes a JSON-RPC error.
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
	// InType and OutType are the Go types the schemas are generated from.
	InType() reflect.Type
	OutType() reflect.Type
	// Classification is the declared classification; Classify applies it to a call.
	Classification() Classification
	Classify(Args) Class
	// MaxClass is the most restricted class any call of the tool can have.
	MaxClass() Class
	// Starts is when a call may start a process; MayStartProcess applies it.
	Starts() Cond
	MayStartProcess(Args) bool
	// PlanFirst reports whether the tool plans unless execute is exactly true.
	PlanFirst() bool
	// Statuses is the full status vocabulary of the tool's results, refusals included.
	Statuses() []string
	// Call decodes validated arguments into In, runs the handler and returns Out.
	Call(ctx context.Context, env *Env, args Args) (any, error)
}

// Define turns a Def into a Tool. It panics on an incomplete definition so a broken
// tool package fails at init in every binary and test.
func Define[In, Out any](d Def[In, Out]) Tool {
	switch {
	case d.Name == "":
		panic("tools: tool with empty name")
	case d.Description == "":
		panic(fmt.Sprintf("tools: tool %s has no description", d.Name))
	case d.Handle == nil:
		panic(fmt.Sprintf("tools: tool %s needs Handle", d.Name))
	case len(d.Statuses) == 0:
		panic(fmt.Sprintf("tools: tool %s declares no statuses", d.Name))
	}
	if _, ok := ParseClass(string(d.Classes.Base)); !ok {
		panic(fmt.Sprintf("tools: tool %s has no valid base class", d.Name))
	}
	for _, r := range d.Classes.Rules {
		if r.Catalog == nil {
			if _, ok := ParseClass(string(r.Class)); !ok {
				panic(fmt.Sprintf("tools: tool %s has a rule without a valid class", d.Name))
			}
		}
	}
	in, out := reflect.TypeFor[In](), reflect.TypeFor[Out]()
	if in.Kind() != reflect.Struct || out.Kind() != reflect.Struct {
		panic(fmt.Sprintf("tools: tool %s needs struct In and Out types", d.Name))
	}
	_, planFirst := fieldByJSONName(in, "execute")
	return &tool[In, Out]{def: d, in: in, out: out, planFirst: planFirst,
		statuses: vocabulary(d.Statuses)}
}

type tool[In, Out any] struct {
	def       Def[In, Out]
	in, out   reflect.Type
	planFirst bool
	statuses  []string
}

func (t *tool[In, Out]) Name() string                   { return t.def.Name }
func (t *tool[In, Out]) Order() int                     { return t.def.Order }
func (t *tool[In, Out]) Title() string                  { return t.def.Title }
func (t *tool[In, Out]) Description() string            { return t.def.Description }
func (t *tool[In, Out]) Annotations() Annotations       { return t.def.Annotations }
func (t *tool[In, Out]) ProjectArg() string             { return t.def.ProjectArg }
func (t *tool[In, Out]) InType() reflect.Type           { return t.in }
func (t *tool[In, Out]) OutType() reflect.Type          { return t.out }
func (t *tool[In, Out]) Classification() Classification { return t.def.Classes }
func (t *tool[In, Out]) Classify(a Args) Class          { return t.def.Classes.With(a, t.def.Oracles) }
func (t *tool[In, Out]) MaxClass() Class                { return t.def.Classes.Max() }
func (t *tool[In, Out]) Starts() Cond                   { return t.def.Starts }
func (t *tool[In, Out]) MayStartProcess(a Args) bool    { return t.def.Starts.Holds(a) }
func (t *tool[In, Out]) PlanFirst() bool                { return t.planFirst }
func (t *tool[In, Out]) Statuses() []string             { return slices.Clone(t.statuses) }

func (t *tool[In, Out]) Call(ctx context.Context, env *Env, args Args) (any, error) {
	var in In
	if err := decodeArgs(args, &in); err != nil {
		return nil, err
	}
	return t.def.Handle(ctx, env, in)
}

// vocabulary is the declared statuses plus the pipeline's refusals, each once, in
// declaration order.
func vocabulary(declared []string) []string {
	out := make([]string, 0, len(declared)+2)
	for _, s := range append(slices.Clone(declared), StatusInvalidInput, StatusBlocked) {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
