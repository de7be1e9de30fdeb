package hook

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/hookscope"
	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/tools"
)

// Texts of the Codex hooks (docs/hosts/codex.md).
const (
	codexForbiddenReason  = "Windows Dev Agent blocked a forbidden action: %s (safety_class=forbidden). Do not retry it or work around it: change the task boundary with the user instead."
	codexLargeReason      = "Windows Dev Agent blocked this call unclassified: its hook event is larger than %d bytes, the limit of what the hook reads."
	codexLargeContext     = "windows-dev-agent host=codex event_limit=exceeded"
	codexForbiddenContext = "windows-dev-agent host=codex safety_class=forbidden"
	codexScopeReason      = "Windows Dev Agent blocked a project-scope escape: %v"
	codexScopeContext     = "windows-dev-agent host=codex project_scope=denied"
	codexForbiddenMessage = "Windows Dev Agent blocked a forbidden action"
)

// codexPreToolUse denies forbidden calls and project-scope escapes; otherwise it prints
// nothing and Codex's own approval decides. It never answers allow or ask.
func codexPreToolUse(c *call, stdin io.Reader) any {
	ev, err := readEvent(stdin)
	if errors.Is(err, errEventTooLarge) {
		return preToolUse(audit.DecisionDeny, fmt.Sprintf(codexLargeReason, maxEventBytes), codexLargeContext)
	}
	if err != nil {
		return preToolUse(audit.DecisionDeny, fmt.Sprintf(parseDenyReason, err), "")
	}
	tool, input := ev.str("tool_name"), ev.toolInput()
	class, why := c.decide(tool, input, ev["cwd"])
	var out any
	decision := audit.DecisionHostDefault
	if class == tools.Forbidden {
		decision = audit.DecisionDeny
		out = preToolUse(decision, fmt.Sprintf(codexForbiddenReason, why), codexForbiddenContext)
	} else if b := c.policyBlock(tool, input, class); b != nil {
		decision = audit.DecisionDeny
		out = preToolUse(decision, b.Message, policyContext)
	} else if sp, ok := c.specs.Find(tool); ok {
		if sp.ProjectArg == "" {
			c.handOverScope(ev) // nothing to contain: the record tells the server the hooks run
		} else if err := projectScopeError(ev["cwd"], sp.ProjectArg, input); err != nil {
			decision = audit.DecisionDeny
			out = preToolUse(decision, fmt.Sprintf(codexScopeReason, err), codexScopeContext)
		} else {
			c.handOverScope(ev)
		}
	}
	c.permissionRecord(ev, eventPreToolUse, class, decision)
	return out
}

// handOverScope records, for the server that will serve this call, the session
// directory the call was checked against (internal/hookscope): the server contains a
// project-scoped call in it again on the directory it opens, so a swap after this check
// is refused, and for every call the record is how the server knows the hooks run (no
// record: it tells the session once that they do not). A failure costs that second
// check, and says so.
func (c *call) handOverScope(ev event) {
	cwd := strings.TrimSpace(ev.str("cwd"))
	if cwd == "" {
		return // no session directory to name (projectScopeError refuses that for a scoped call)
	}
	root, err := contain.NewRoot(cwd)
	if err != nil {
		return // projectScopeError resolved it a moment ago; nothing to hand over now
	}
	if err := hookscope.Put(c.dataDir, ev.str("tool_use_id"), hookscope.Record{Session: ev.str("session_id"), Cwd: root.Path}); err != nil {
		c.warnf("project scope not handed to the server: %v", err)
	}
}

func codexPanicDeny(*call) any { return preToolUse(audit.DecisionDeny, panicDenyReason, "") }

// codexPermissionRequest allows only the proven-safe plan calls (docs/hosts/codex.md);
// unparsable input and everything unproven get no answer, so Codex prompts.
func codexPermissionRequest(c *call, stdin io.Reader) any {
	ev, err := readEvent(stdin)
	if err != nil {
		c.warnf("no decision: %v", err)
		return nil
	}
	tool, input := ev.str("tool_name"), ev.toolInput()
	class := c.classify(tool, input)
	var out any
	decision := audit.DecisionHostDefault
	if class == tools.Forbidden {
		decision = audit.DecisionDeny
		out = permissionRequest("deny", codexForbiddenMessage)
	} else if b := c.policyBlock(tool, input, class); b != nil {
		decision = audit.DecisionDeny
		out = permissionRequest("deny", b.Message)
	} else if class == tools.ReadOnly && provenPlan(c.specs, tool, input, ev["cwd"]) {
		decision = audit.DecisionAllow
		out = permissionRequest("allow", "")
	}
	c.permissionRecord(ev, eventPermissionRequest, class, decision)
	return out
}

// planOnly is the allow table of docs/hosts/codex.md: the tools whose plan-only calls the
// PermissionRequest hook may allow, and whether the proof also needs the project
// argument inside the event cwd. sandbox_run is deliberately absent: even its plan
// enumerates project files. The generated PermissionRequest matcher is built from it.
var planOnly = map[string]struct{ needsProject bool }{
	"package_install": {needsProject: false},
	"capability_run":  {needsProject: true},
	"workflow_plan":   {needsProject: true},
}

// CodexMayAllow reports whether the Codex PermissionRequest hook can ever allow a call
// to the tool (short name). Packaging sends the hook exactly these tools.
func CodexMayAllow(tool string) bool {
	_, ok := planOnly[tool]
	return ok
}

// provenPlan applies planOnly to one call.
func provenPlan(specs classify.Specs, tool string, input map[string]any, cwd any) bool {
	short, ok := classify.ShortName(tool)
	if !ok {
		return false
	}
	rule, listed := planOnly[short]
	if !listed || input["execute"] == true {
		return false
	}
	if !rule.needsProject {
		return true
	}
	sp, ok := specs.Lookup(short)
	if !ok || sp.ProjectArg == "" {
		return false
	}
	return projectScopeError(cwd, sp.ProjectArg, input) == nil
}

// projectScopeError is the hooks' containment check (docs/safety.md): the event's cwd
// and the call's project argument must both be non-blank absolute strings and existing
// directories, and the argument's final path (every link and junction followed, taken
// from the opened directory) must lie inside the cwd's. The hook only decides; the
// server binds the directory again when the call arrives.
func projectScopeError(cwd any, arg string, input map[string]any) error {
	root, _ := cwd.(string)
	root = strings.TrimSpace(root)
	switch {
	case root == "":
		return errors.New("the hook event carries no session cwd")
	case !filepath.IsAbs(root):
		return errors.New("the hook event's session cwd is not an absolute path")
	}
	var p string
	switch v := input[arg].(type) {
	case nil:
		return fmt.Errorf("%s (the project directory) is required", arg)
	case string:
		p = strings.TrimSpace(v)
	default:
		return fmt.Errorf("%s (the project directory) must be a string", arg)
	}
	switch {
	case p == "":
		return fmt.Errorf("%s (the project directory) is required", arg)
	case !filepath.IsAbs(p):
		return fmt.Errorf("%s (the project directory) must be an absolute path", arg)
	}
	realRoot, err := contain.ResolveDir(root)
	if err != nil {
		return fmt.Errorf("session cwd: %v", err)
	}
	dir, err := contain.ResolveDir(p)
	if err != nil {
		return fmt.Errorf("%s: %v", arg, err)
	}
	if !contain.Within(realRoot, dir) {
		return fmt.Errorf("%s must stay inside the session project directory: %s", arg, realRoot)
	}
	return nil
}

// codexStop prints the session's counts as one JSON systemMessage; nothing for invalid
// input, a missing session id or a session without events.
func codexStop(c *call, stdin io.Reader) any {
	ev, err := readEvent(stdin)
	if err != nil {
		return nil
	}
	s, ok := c.sessionSummary(ev.str("session_id"))
	if !ok {
		return nil
	}
	return stopOutput{SystemMessage: s.CodexMessage()}
}
