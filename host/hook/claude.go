package hook

import (
	"errors"
	"fmt"
	"io"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/tools"
)

// Reasons shown by the Claude gate: to Claude for deny, to the user for ask.
const (
	claudeDenyReason  = "Windows Dev Agent blocked a forbidden action: %s (safety_class=forbidden). Do not retry it or work around it: change the task boundary with the user instead."
	claudeAskReason   = "Windows Dev Agent classifies this call as %s: %s. Confirm that it should run."
	claudeLargeReason = "Windows Dev Agent did not classify this call: its hook event is larger than %d bytes, the limit of what the hook reads, so it counts as approval-required: confirm that it should run."
	parseDenyReason   = "Windows Dev Agent could not read the hook event (%v); denying because the call cannot be classified."
	panicDenyReason   = "Windows Dev Agent hit an internal error while classifying this call; denying because it cannot be classified."
	// policyContext is the additional context of a deny by the managed policy; the
	// reason is the policy's own message (docs/policy.md, "Rules").
	policyContext = "windows-dev-agent managed_policy=denied"
)

// claudePreToolUse is the tightening-only Claude gate (docs/hooks.md, "Claude Code").
func claudePreToolUse(c *call, stdin io.Reader) any {
	ev, err := readEvent(stdin)
	if errors.Is(err, errEventTooLarge) {
		return preToolUse(audit.DecisionAsk, fmt.Sprintf(claudeLargeReason, maxEventBytes), "windows-dev-agent safety_class="+string(tools.ApprovalRequired))
	}
	if err != nil {
		return preToolUse(audit.DecisionDeny, fmt.Sprintf(parseDenyReason, err), "")
	}
	tool := ev.str("tool_name")
	input := ev.toolInput()
	class, why := c.decide(tool, input, ev["cwd"])
	var out any
	decision := audit.DecisionHostDefault
	var b *policy.Block
	if class != tools.Forbidden {
		b = c.policyBlock(tool, input, class)
	}
	switch {
	case b != nil:
		decision = audit.DecisionDeny
		out = preToolUse(decision, b.Message, policyContext)
	case class == tools.Forbidden:
		decision = audit.DecisionDeny
		out = preToolUse(decision, fmt.Sprintf(claudeDenyReason, why), "windows-dev-agent safety_class="+string(class))
	case class == tools.ApprovalRequired || class == tools.Checkpoint:
		decision = audit.DecisionAsk
		out = preToolUse(decision, fmt.Sprintf(claudeAskReason, class, why), "windows-dev-agent safety_class="+string(class))
	}
	c.permissionRecord(ev, eventPreToolUse, class, decision)
	return out
}

func claudePanicDeny(*call) any { return preToolUse(audit.DecisionDeny, panicDenyReason, "") }

// permissionRecord appends the audit record of a permission/control event.
func (c *call) permissionRecord(ev event, name string, class tools.Class, decision string) {
	denied := decision == audit.DecisionDeny
	r := audit.Record{
		Event:              name,
		ExecutionOutcome:   audit.NotApplicable,
		PermissionDenied:   &denied,
		PermissionDecision: decision,
		SafetyClass:        string(class),
		SessionID:          ev.str("session_id"),
		ToolName:           ev.str("tool_name"),
		ToolUseID:          ev.str("tool_use_id"),
		RefusalRule:        c.refusalRule,
	}
	if c.host == "codex" {
		r.Host = "codex"
	}
	c.append(r)
}

func (c *call) append(r audit.Record) {
	if err := audit.Append(c.dataDir, r); err != nil {
		c.warnf("audit record not written: %v", err)
	}
}

// traceHandler records one finished call of this server's tools (docs/hooks.md, "PostToolUse and PostToolUseFailure"):
// only derived fields, never the input or the response.
func traceHandler(name string) func(*call, io.Reader) any {
	return func(c *call, stdin io.Reader) any {
		ev, err := readEvent(stdin)
		if err != nil {
			c.warnf("trace skipped: %v", err)
			return nil
		}
		tool := ev.str("tool_name")
		if _, ours := classify.ShortName(tool); !ours {
			return nil
		}
		in := c.outcomeInput(name, tool, ev.toolInput(), audit.DecodeResult(ev["tool_response"]))
		r := audit.Record{
			Event:            name,
			ExecutionStarted: audit.ExecutionStarted(in),
			ExecutionOutcome: audit.Outcome(in),
			ResultStatus:     audit.ResultStatus(in),
			SessionID:        ev.str("session_id"),
			AgentID:          ev.str("agent_id"),
			AgentType:        ev.str("agent_type"),
			ToolName:         tool,
			ToolUseID:        ev.str("tool_use_id"),
			DurationMS:       ev.number("duration_ms"),
		}
		if c.host == "codex" {
			// Codex has no failure event: lifecycle_success stays null.
			r.Host = "codex"
		} else {
			success := name != eventPostToolUseFailure
			errorPresent := audit.Truthy(ev["error"])
			r.Success, r.ErrorPresent = &success, &errorPresent
		}
		c.append(r)
		return nil
	}
}

// claudeStop prints the session's audit report as a systemMessage; nothing without a
// session id or without events.
func claudeStop(c *call, stdin io.Reader) any {
	sid := c.sessionFlag
	if sid == "" {
		if ev, err := readEvent(stdin); err == nil {
			sid = ev.str("session_id")
		}
	}
	s, ok := c.sessionSummary(sid)
	if !ok {
		return nil
	}
	return stopOutput{SystemMessage: s.Text(true)}
}

// sessionSummary summarises sid's retained records; false when there is nothing to say.
func (c *call) sessionSummary(sid string) (audit.Summary, bool) {
	if sid == "" {
		return audit.Summary{}, false
	}
	s, n, err := audit.SessionSummary(c.dataDir, sid)
	if err != nil {
		c.warnf("audit history unreadable: %v", err)
		return audit.Summary{}, false
	}
	return s, n > 0
}

// outcomeInput is the facts the outcome rules need, from the tool's own declarations in
// the shipped table: whether it plans first, when a call may start a process, and the
// statuses its results may carry. A tool missing from the table (an older or newer
// server) is treated as one that may start a process, with the default vocabulary.
func (c *call) outcomeInput(event, tool string, input, result map[string]any) audit.OutcomeInput {
	in := audit.OutcomeInput{Event: event, Result: result}
	sp, known := c.specs.Find(tool)
	if !known {
		in.MayStartProcess = true
		execute, has := input["execute"]
		in.HasExecute, in.Executing = has, execute == true
		return in
	}
	if sp.PlanFirst {
		// The server fills the execute default in; a hook event may lack the key.
		in.HasExecute, in.Executing = true, input["execute"] == true
	}
	in.MayStartProcess = sp.Starts.Holds(tools.Args(input))
	if v, err := audit.NewVocabulary(sp.Statuses...); err == nil {
		in.Vocabulary = v
	}
	return in
}
