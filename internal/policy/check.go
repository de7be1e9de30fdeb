package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda/tools"
)

// Call is what a check needs of one call of the ten tools: its short name, its
// arguments (defaults may be missing: the hooks see the host's raw input) and its
// class with the catalog in force.
type Call struct {
	Tool  string
	Args  map[string]any
	Class tools.Class
}

// Block is a refusal by the policy: the rule (a setting's path, or RuleUnreadable)
// and the message the caller is given, which names the rule and the source and never
// how to get around it.
type Block struct {
	Rule    string
	Message string
}

// RuleUnreadable is the rule of a refusal because the policy does not parse.
const RuleUnreadable = "unreadable"

// AuditRule is the audit record's refusal_rule of a block by rule (docs/audit.md):
// "policy_" and the rule, dots as underscores.
func AuditRule(rule string) string { return "policy_" + strings.ReplaceAll(rule, ".", "_") }

// IsAuditRule reports whether s is AuditRule of a rule that exists.
func IsAuditRule(s string) bool {
	if !strings.HasPrefix(s, "policy_") { // every audit record asks: no work for the others
		return false
	}
	if s == AuditRule(RuleUnreadable) {
		return true
	}
	for _, st := range Settings {
		if s == AuditRule(st.Path) {
			return true
		}
	}
	return false
}

// Check decides whether the policy in s blocks c (docs/policy.md, "Rules"): nil when
// it does not. A policy that does not parse blocks every call that would execute
// (a class above read-only, or execute exactly true); read-only calls still answer.
func (s *State) Check(c Call) *Block {
	if s == nil || s.Source == "" {
		return nil
	}
	if s.Err != nil {
		if c.Class == tools.ReadOnly && c.Args["execute"] != true {
			return nil
		}
		return &Block{Rule: RuleUnreadable, Message: fmt.Sprintf(
			"blocked: the managed policy cannot be used, so calls that would execute are refused: %v", s.Err)}
	}
	if rule := s.Policy.rule(c); rule != "" {
		return &Block{Rule: rule, Message: fmt.Sprintf("blocked by managed policy rule %s (source %s)", rule, s.Source)}
	}
	return nil
}

// rule is the first rule of p that refuses c, or "".
func (p *Policy) rule(c Call) string {
	if slices.Contains(p.DisabledTools, c.Tool) {
		return "disabled_tools"
	}
	str := func(k, def string) string {
		if v, ok := c.Args[k].(string); ok {
			return v
		}
		return def
	}
	switch c.Tool {
	case "capability_run":
		id := str("capability", "")
		if slices.Contains(p.DeniedCapabilities, id) {
			return "denied_capabilities"
		}
		if tools.IsProjectTaskID(id) {
			if p.ProjectTasks == "deny" {
				return "project_tasks"
			}
		} else if p.AllowedCapabilities != nil && !slices.Contains(*p.AllowedCapabilities, id) {
			return "allowed_capabilities"
		}
		// Anything but an absent or empty list counts: a malformed value never lowers.
		if extra, isList := c.Args["extra_args"].([]any); p.RefuseExtraArgs && c.Args["extra_args"] != nil && (!isList || len(extra) > 0) {
			return "refuse_extra_args"
		}
	case "package_install":
		if a := p.Packages.AllowedIDs; a != nil && !slices.ContainsFunc(*a, func(id string) bool { return strings.EqualFold(id, str("package_id", "")) }) {
			return "packages.allowed_ids"
		}
		if a := p.Packages.AllowedSources; a != nil && !slices.Contains(*a, str("source", "winget")) {
			return "packages.allowed_sources"
		}
		if u := p.Packages.AllowUninstall; u != nil && !*u && str("action", "install") == "uninstall" {
			return "packages.allow_uninstall"
		}
	case "sandbox_run":
		if a := p.Sandbox.AllowedRoutes; a != nil {
			route := str("environment", "auto")
			ok := slices.Contains(*a, route)
			if route == "auto" {
				ok = len(*a) > 0 && !slices.ContainsFunc(routes, func(r string) bool { return !slices.Contains(*a, r) })
			}
			if !ok {
				return "sandbox.allowed_routes"
			}
		}
	}
	if p.MaxExecuteClass != "" && c.Class.Rank() > p.MaxExecuteClass.Rank() {
		return "max_execute_class"
	}
	return ""
}

// routes are the environments sandbox.allowed_routes lists.
var routes = func() []string {
	s, _ := lookup("sandbox.allowed_routes")
	return s.Enum
}()
