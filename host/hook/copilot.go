package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/host/hostenv"
	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/tools"
)

// The Copilot CLI's names (docs/hosts/copilot.md): a plugin server's tools reach the
// hooks as <server>-<tool>, and its shell tools are bash and powershell, whose
// toolArgs.command is the command line.
const CopilotToolPrefix = "windows-dev-agent-"

// CopilotShellTools are the Copilot CLI's shell tool names.
var CopilotShellTools = []string{"bash", "powershell"}

// CopilotShellInputTools are the Copilot CLI's tools that type into a shell started
// asynchronously (toolArgs {shellId, input, delay}); input is text with the key names
// {enter}, {backspace}, {left}, {right}, {up} and {down} (docs/hosts/copilot.md,
// "Typing into a running shell"). The hook classifies what they type.
var CopilotShellInputTools = []string{"write_bash", "write_powershell"}

// CopilotProjectDirVar is the session's project directory in a Copilot hook's
// environment; the event's cwd is preferred.
const CopilotProjectDirVar = "COPILOT_PROJECT_DIR"

// Texts of the Copilot preToolUse hook.
const (
	copilotForbiddenReason = "Windows Dev Agent blocked a forbidden action: %s (safety_class=forbidden). Do not retry it or work around it: change the task boundary with the user instead."
	copilotAskReason       = "Windows Dev Agent classifies this call as %s: %s. Confirm that it should run."
	copilotScopeReason     = "Windows Dev Agent blocked a project-scope escape: %v"
	copilotArgsDenyReason  = "Windows Dev Agent could not read the call's toolArgs; denying because the call cannot be classified."
)

func init() {
	handlers["copilot pre-tool-use"] = handler{run: copilotPreToolUse, onPanic: copilotPanicDeny}
}

// copilotOutput is the Copilot CLI preToolUse answer. The hook only ever answers
// deny or ask (or nothing): Copilot honours allow by skipping its own prompt, so an
// allow would loosen the host's approval.
type copilotOutput struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// copilotPreToolUse tightens the Copilot CLI's permission flow as the Claude gate does
// (forbidden → deny, approval-required and checkpoint → ask), and for a project-scoped
// call of this server also denies a project argument that is missing, relative, not a
// directory or outside the session's directory, as the Codex PreToolUse hook does.
// Unparsable input is denied.
func copilotPreToolUse(c *call, stdin io.Reader) any {
	ev, err := readEvent(stdin)
	if err != nil {
		return copilotOutput{audit.DecisionDeny, fmt.Sprintf(parseDenyReason, err)}
	}
	tool := ev.str("toolName")
	input, ok := copilotArgs(ev["toolArgs"])
	if !ok {
		c.copilotRecord(ev, tools.ApprovalRequired, audit.DecisionDeny)
		return copilotOutput{audit.DecisionDeny, copilotArgsDenyReason}
	}
	name := copilotToolName(tool)
	var class tools.Class
	var why string
	if slices.Contains(CopilotShellInputTools, tool) {
		class, why = typedClass(input)
	} else {
		class, why = c.decide(name, input, ev["cwd"])
	}
	scopeErr := c.copilotScopeError(ev, name, input)
	var b *policy.Block
	if class != tools.Forbidden {
		b = c.policyBlock(name, input, class)
	}
	var out any
	decision := audit.DecisionHostDefault
	switch {
	case class == tools.Forbidden:
		decision = audit.DecisionDeny
		out = copilotOutput{decision, fmt.Sprintf(copilotForbiddenReason, why)}
	case b != nil:
		decision = audit.DecisionDeny
		out = copilotOutput{decision, b.Message}
	case scopeErr != nil:
		decision = audit.DecisionDeny
		out = copilotOutput{decision, fmt.Sprintf(copilotScopeReason, scopeErr)}
	case class == tools.ApprovalRequired || class == tools.Checkpoint:
		decision = audit.DecisionAsk
		out = copilotOutput{decision, fmt.Sprintf(copilotAskReason, class, why)}
	}
	c.copilotRecord(ev, class, decision)
	return out
}

func copilotPanicDeny(*call) any { return copilotOutput{audit.DecisionDeny, panicDenyReason} }

// copilotToolName maps a Copilot tool name onto the names the classifier knows: the
// shell tools onto Bash and PowerShell, this server's tools onto the bare-server prefix.
// Anything else is returned unchanged, which the classifier treats as
// approval-required.
func copilotToolName(tool string) string {
	switch tool {
	case "bash":
		return "Bash"
	case "powershell":
		return "PowerShell"
	}
	if short, ok := strings.CutPrefix(tool, CopilotToolPrefix); ok && short != "" {
		return classify.PrefixClaude + short
	}
	return tool
}

// typedClass classifies what a write_bash or write_powershell call types into a
// running shell (docs/hosts/copilot.md, "Typing into a running shell"): the lines as
// the shell receives them after line editing, as one command line of shell; and the
// input read without editing, so that a forbidden word split by an editing key is
// still denied. What the hook cannot read to the end asks: a line without Enter (a
// later write completes it), keys that reach into history or text typed before, and
// a command that may start git (the running shell's directory is not the event's
// cwd: it may have changed directory). Nothing typed is read-only.
func typedClass(input map[string]any) (tools.Class, string) {
	v := input["input"]
	s, isString := v.(string)
	switch {
	case v == nil || s == "" && isString:
		return tools.ReadOnly, "the call types nothing"
	case !isString:
		return tools.ApprovalRequired, "the input to type is not a string"
	}
	typed := readTyped(s)
	// Bash and PowerShell lines go through the one shell classifier (Explain), which
	// is what Decide would call for either shell.
	class, why := classify.Explain(typed.text)
	if class != tools.Forbidden && typed.raw != typed.text {
		if rc, rwhy := classify.Explain(typed.raw); rc == tools.Forbidden {
			return rc, rwhy
		}
	}
	if class.Rank() >= tools.ApprovalRequired.Rank() {
		return class, why
	}
	switch {
	case typed.inexact:
		return tools.ApprovalRequired, "the input holds keys whose effect depends on what the shell already holds (history, completion, text typed before), which the hook cannot see"
	case typed.partial:
		return tools.ApprovalRequired, "the typed line has no Enter, so a later write completes it into a command the hook has not seen"
	case mayRunGit(typed.text):
		return tools.ApprovalRequired, "the running shell's directory is unknown, so the repository's git configuration cannot be checked"
	}
	return class, why
}

// copilotArgs is the call's arguments: an object, or a string holding one (the form
// some Copilot builds send); absent means none. Anything else cannot be classified.
func copilotArgs(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case nil:
		return map[string]any{}, true
	case map[string]any:
		return x, true
	case string:
		dec := json.NewDecoder(bytes.NewReader([]byte(x)))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil || m == nil {
			return nil, false
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, false
		}
		return m, true
	}
	return nil, false
}

// copilotScopeError is the containment check of a project-scoped call of this server:
// the project argument must be an absolute directory inside the session's directory
// (the event's cwd, else COPILOT_PROJECT_DIR). nil for every other call.
func (c *call) copilotScopeError(ev event, name string, input map[string]any) error {
	sp, ok := c.specs.Find(name)
	if !ok || sp.ProjectArg == "" {
		return nil
	}
	root := ev["cwd"]
	if s, _ := root.(string); strings.TrimSpace(s) == "" {
		root = hostenv.Var(c.getenv, CopilotProjectDirVar)
	}
	return projectScopeError(root, sp.ProjectArg, input)
}

// copilotRecord appends the audit record of one preToolUse decision.
func (c *call) copilotRecord(ev event, class tools.Class, decision string) {
	denied := decision == audit.DecisionDeny
	c.append(audit.Record{
		Event:              eventPreToolUse,
		ExecutionOutcome:   audit.NotApplicable,
		PermissionDenied:   &denied,
		PermissionDecision: decision,
		SafetyClass:        string(class),
		SessionID:          ev.str("sessionId"),
		ToolName:           ev.str("toolName"),
		Host:               "copilot",
		RefusalRule:        c.refusalRule,
	})
}
