package hook

import (
	"bytes"
	"encoding/json"
	"io"
)

// preToolUseOutput is the PreToolUse answer of both hosts (docs/hooks.md).
type preToolUseOutput struct {
	HookSpecificOutput preToolUseDecision `json:"hookSpecificOutput"`
}

type preToolUseDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

func preToolUse(decision, reason, context string) preToolUseOutput {
	return preToolUseOutput{preToolUseDecision{HookEventName: eventPreToolUse, PermissionDecision: decision,
		PermissionDecisionReason: reason, AdditionalContext: context}}
}

// permissionRequestOutput is the Codex PermissionRequest answer (docs/hooks.md, "PermissionRequest").
type permissionRequestOutput struct {
	HookSpecificOutput struct {
		HookEventName string             `json:"hookEventName"`
		Decision      permissionDecision `json:"decision"`
	} `json:"hookSpecificOutput"`
}

type permissionDecision struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

func permissionRequest(behavior, message string) permissionRequestOutput {
	var o permissionRequestOutput
	o.HookSpecificOutput.HookEventName = eventPermissionRequest
	o.HookSpecificOutput.Decision = permissionDecision{Behavior: behavior, Message: message}
	return o
}

// stopOutput is the Stop answer of both hosts.
type stopOutput struct {
	SystemMessage string `json:"systemMessage"`
}

// writeJSON writes v as one compact JSON line with a single Write.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
