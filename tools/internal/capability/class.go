package capability

import (
	"github.com/windows-dev-agent/wda/tools"
)

// EffectiveClass is the class of one call: forbidden stays forbidden; any caller
// supplied extra argument makes the call approval-required (even for a read-only base,
// because the arguments are not reviewed catalog data); otherwise the base class.
func EffectiveClass(base tools.Class, extraArgs []string) tools.Class {
	switch {
	case base == tools.Forbidden:
		return tools.Forbidden
	case len(extraArgs) > 0:
		return tools.ApprovalRequired
	default:
		return base
	}
}

// RequiresHostApproval reports whether the host should ask before the call executes.
func RequiresHostApproval(c tools.Class) bool {
	return c == tools.Reversible || c == tools.ApprovalRequired
}
