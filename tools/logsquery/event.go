package logsquery

import (
	"encoding/json"

	"github.com/invopop/jsonschema"
)

// Event is one audit record as logs_query returns it: the stored record projected onto
// the audit metadata keys of docs/audit.md, "Records", each kept only when its value has
// the key's JSON type. Unknown keys are dropped, so a legacy log (0.1 stored redacted
// inputs) cannot leak arguments through logs_query (docs/tools/logs_query.md, "Output").
type Event map[string]any

// kind is the JSON type a field may have (null is always allowed).
type kind int

const (
	kString kind = iota
	kBool
	kNumber
	kInteger
)

// fields are the metadata keys, in the order of the record format.
var fields = []struct {
	name string
	kind kind
	desc string
}{
	{"ts", kString, "UTC ISO-8601 time the record was written."},
	{"lifecycle_event", kString, "Hook event name, or tools/call for the server."},
	{"lifecycle_success", kBool, "true for PostToolUse, false for PostToolUseFailure, else null."},
	{"event", kString, "Legacy mirror of lifecycle_event."},
	{"success", kBool, "Legacy mirror of lifecycle_success."},
	{"execution_started", kBool, "Whether an external process was started (null: not established)."},
	{"execution_outcome", kString, "succeeded, failed, unknown, not_executed or not_applicable."},
	{"result_status", kString, "The status string of the tool result."},
	{"session_id", kString, "Host session id."},
	{"agent_id", kString, "Host agent id."},
	{"agent_type", kString, "Host agent type."},
	{"tool_name", kString, "Tool name as the host called it."},
	{"tool_use_id", kString, "Host tool-use id."},
	{"duration_ms", kNumber, "Call duration in milliseconds."},
	{"error_present", kBool, "Whether the call reported an error (its text is never stored)."},
	{"permission_denied", kBool, "Whether a hook denied the call."},
	{"permission_decision", kString, "deny, ask, allow or host-default."},
	{"safety_class", kString, "Safety class of the call."},
	{"host", kString, "Host that wrote the record."},
	{"capability", kString, "The capability the call named, when it is one of the catalog in force."},
	{"package_id", kString, "The package id the call named, when the package manager printed it for the call."},
	{"refusal_field", kString, "The argument a refused call broke a rule of."},
	{"refusal_rule", kString, "Why the call was refused: the rule (required, enum, outside_project, changed …) or the class that blocked it."},
}

// mirrors are the legacy spellings a writer fills beside the current ones
// (docs/audit.md, "Records"): the model reads each fact once, so a mirror is given only
// when the record lacks the key it mirrors or disagrees with it (issue 24).
var mirrors = map[string]string{"event": "lifecycle_event", "success": "lifecycle_success"}

// project keeps the metadata keys of ev that have their key's type. schema_version is
// not among them: it is the same on every record the tool can read and says nothing
// about the call.
func project(ev map[string]any) Event {
	out := Event{}
	for _, f := range fields {
		v, has := ev[f.name]
		if !has || !fits(v, f.kind) {
			continue
		}
		if cur, ok := mirrors[f.name]; ok {
			if w, has := ev[cur]; has && fits(w, f.kind) && w == v {
				continue
			}
		}
		out[f.name] = v
	}
	return out
}

func fits(v any, k kind) bool {
	switch t := v.(type) {
	case nil:
		return true
	case string:
		return k == kString
	case bool:
		return k == kBool
	case json.Number:
		if k == kInteger {
			_, err := t.Int64()
			return err == nil
		}
		return k == kNumber
	case float64:
		return k == kNumber || (k == kInteger && t == float64(int64(t)))
	}
	return false
}

// JSONSchema gives events a concrete item schema: every metadata key, typed, nullable.
func (Event) JSONSchema() *jsonschema.Schema {
	props := jsonschema.NewProperties()
	for _, f := range fields {
		t := map[kind]string{kString: "string", kBool: "boolean", kNumber: "number", kInteger: "integer"}[f.kind]
		props.Set(f.name, &jsonschema.Schema{
			AnyOf:       []*jsonschema.Schema{{Type: t}, {Type: "null"}},
			Description: f.desc,
		})
	}
	return &jsonschema.Schema{Type: "object", Properties: props, AdditionalProperties: jsonschema.FalseSchema,
		Description: "One audit record: derived metadata only."}
}
