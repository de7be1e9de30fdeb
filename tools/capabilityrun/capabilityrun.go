// Package capabilityrun is the capability_run tool: plan (execute:false) or run a
// catalog capability through the capability engine (tools/internal/capability), bound to the
// executable identity the caller reviewed.
package capabilityrun

import (
	"context"
	"fmt"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/capability"
)

// In is the input of capability_run.
type In struct {
	Capability string   `json:"capability" jsonschema:"required,maxLength=256,description=Capability id from the catalog."`
	ExtraArgs  []string `json:"extra_args,omitempty" jsonschema:"maxItems=128,description=Extra arguments appended to the argv as separate elements (never shell-joined)."`
	Cwd        string   `json:"cwd,omitempty" jsonschema:"description=Project directory to run in (default: the active project)."`
	Execute    bool     `json:"execute,omitempty" jsonschema:"default=false,description=false returns the plan; true runs the reviewed plan."`
	tools.Identity
	TimeoutSeconds int `json:"timeout_seconds,omitempty" jsonschema:"minimum=1,maximum=600,default=120,description=Timeout in seconds."`
}

// Out is the result of capability_run: the engine's merged plan + receipt + status.
type Out = capability.Result

// Tool is the capability_run tool definition.
var Tool = tools.Define(tools.Def[In, Out]{
	Name:        "capability_run",
	Order:       3,
	Title:       "Run capability",
	Description: "Plan or run a capability from the catalog (capabilities.yaml). execute:false returns the exact argv, the absolute executable and its SHA-256 identity for review; execute:true runs it only when the reviewed identity is echoed back unchanged. Forbidden capabilities are blocked; extra_args make a call approval-required.",
	Annotations: tools.Annotations{ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: true},
	ProjectArg:  "cwd",
	Classify:    classify,
	Handle:      handle,
})

func init() { tools.Register(Tool) }

// classify is the hook-side class (tools.md §3.3): a plan is read-only; an execution
// takes the effective class of the named capability in the shipped catalog, and an
// unknown capability or an unreadable catalog is approval-required.
func classify(a tools.Args) tools.Class {
	if !a.Bool("execute") {
		return tools.ReadOnly
	}
	cat, err := catalog.Shipped()
	if err != nil {
		return tools.ApprovalRequired
	}
	cp, ok := cat.Get(a.String("capability"))
	if !ok {
		return tools.ApprovalRequired
	}
	var extra []string
	if l, ok := a["extra_args"].([]any); ok {
		for _, x := range l {
			s, _ := x.(string)
			extra = append(extra, s)
		}
	}
	return capability.EffectiveClass(cp.Safety, extra)
}

func handle(ctx context.Context, env *tools.Env, in In) (Out, error) {
	dir, err := tools.ResolveDir(env, in.Cwd)
	if err != nil {
		return Out{Status: tools.Status{Status: "invalid_input", Error: err.Error()}, Capability: in.Capability}, nil
	}
	cat, err := catalog.LoadOrShipped(env.Catalog)
	if err != nil {
		// Not a domain outcome: the server answers with JSON-RPC -32000 and this text.
		return Out{}, fmt.Errorf("capability catalog could not be loaded: %w", err)
	}
	e := &capability.Engine{Catalog: cat, Resolver: proc.NewResolver(env.Lookup), Runner: proc.Exec{},
		Fingerprint: proc.Fingerprint, SamePath: proc.SamePath}
	return e.Run(ctx, capability.Request{Capability: in.Capability, ExtraArgs: in.ExtraArgs, Dir: dir,
		Execute: in.Execute, Expected: in.Identity, TimeoutSeconds: in.TimeoutSeconds}), nil
}
