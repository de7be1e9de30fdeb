// Package logsquery is the logs_query tool (docs/tools/logs_query.md): the
// newest audit events from the retained segments, filtered, metadata only.
//
// It owns the filter rules and the event projection; reading the segments belongs to
// internal/audit. It must never return the data directory, never write the log, and never
// return a stored key that is not audit metadata.
//
// Output: {status:"ok", events, matched, scope:"persistent_history", execution_started:false}.
// Every result carries a status (ok, or invalid_input for a bad argument) and
// execution_started false: nothing runs. scope is always "persistent_history".
package logsquery

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/tools"
)

// Scope is the scope word of every answer.
const Scope = "persistent_history"

// Limits of last_n.
const (
	DefaultLastN = 20
	MaxLastN     = 200
)

// Filters, exactly as the input enum spells them.
const (
	FilterAll       = "all"
	FilterFailures  = "failures"
	FilterInstalls  = "installs"
	FilterSandbox   = "sandbox"
	FilterApprovals = "approvals"
)

// In is the input of logs_query.
type In struct {
	LastN  int    `json:"last_n,omitempty" jsonschema:"minimum=1,maximum=200,default=20"`
	Filter string `json:"filter,omitempty" jsonschema:"enum=all,enum=failures,enum=installs,enum=sandbox,enum=approvals,default=all"`
}

// Out is the result of logs_query.
type Out struct {
	tools.Status
	Events  []Event `json:"events,omitzero" jsonschema:"description=The last last_n matching events\\, oldest first."`
	Matched int     `json:"matched" jsonschema:"description=How many retained events matched the filter\\, before truncation to last_n."`
	Scope   string  `json:"scope,omitzero" jsonschema:"enum=persistent_history,description=Always persistent_history: the bounded log and its one rotated predecessor."`
}

// New returns the logs_query tool. It has no dependencies of its own: the audit log is
// the call's data directory.
// Deps are the authorities the tool consults. It needs none beyond the call's own
// environment (the data directory, the bound project); the type keeps the shape every
// tool package has.
type Deps struct{}

// DefaultDeps are the tool's dependencies.
func DefaultDeps() Deps { return Deps{} }

// New returns the tool.
func New(_ Deps) tools.Tool {
	return tools.Define(tools.Def[In, Out]{
		Name:        "logs_query",
		Order:       9,
		Title:       "Query audit log",
		Description: "The newest audit events of this server's tool calls, oldest first; metadata only.",
		Annotations: tools.Annotations{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false},
		Classes:     tools.Classification{Base: tools.ReadOnly},
		Starts:      tools.NeverCond,
		Statuses:    []string{"ok"},
		Handle:      handle,
	})
}

func init() { tools.Register(New(DefaultDeps())) }

func handle(_ context.Context, env *tools.Env, in In) (Out, error) {
	out, err := Query(env.DataDir, in.LastN, in.Filter)
	if err != nil {
		return Out{Status: tools.Refusal(tools.StatusInvalidInput, err.Error())}, nil
	}
	return out, nil
}

// Query answers logs_query for dataDir: lastN 0 means the default. It is what
// `wda logs` calls too. Bad arguments are an error naming the field and the rule.
func Query(dataDir string, lastN int, filter string) (Out, error) {
	if lastN == 0 {
		lastN = DefaultLastN
	}
	if lastN < 1 || lastN > MaxLastN {
		return Out{}, fmt.Errorf("last_n must be an integer from 1 to %d, got %d", MaxLastN, lastN)
	}
	if filter == "" {
		filter = FilterAll
	}
	match, ok := filters[filter]
	if !ok {
		return Out{}, fmt.Errorf("filter must be one of all, failures, installs, sandbox, approvals, got %q", filter)
	}
	if dataDir == "" {
		return Out{}, errors.New("no data directory is configured")
	}
	all, _ := audit.Read(dataDir) // unreadable is empty (docs/audit.md, "Reading")
	var matched []map[string]any
	for _, ev := range all {
		if match(ev) {
			matched = append(matched, ev)
		}
	}
	tail := matched[max(0, len(matched)-lastN):]
	events := make([]Event, len(tail))
	for i, ev := range tail {
		events[i] = project(ev)
	}
	return Out{Status: tools.Status{Status: "ok"}, Events: events, Matched: len(matched), Scope: Scope}, nil
}

var filters = map[string]func(map[string]any) bool{
	FilterAll:      func(map[string]any) bool { return true },
	FilterFailures: func(ev map[string]any) bool { return audit.IsFailure(ev) || audit.IsRefusal(ev) },
	FilterInstalls: func(ev map[string]any) bool { return toolContains(ev, "package_install") },
	FilterSandbox:  func(ev map[string]any) bool { return toolContains(ev, "sandbox_run") },
	FilterApprovals: func(ev map[string]any) bool {
		d, has := ev["permission_decision"]
		return has && d != nil && d != audit.DecisionHostDefault
	},
}

func toolContains(ev map[string]any, s string) bool {
	t, _ := ev["tool_name"].(string)
	return strings.Contains(t, s)
}
