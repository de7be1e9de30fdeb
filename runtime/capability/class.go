package capability

import "github.com/windows-dev-agent/wda/runtime"

// EffectiveClass is the class of one call: forbidden stays forbidden; any caller
// supplied extra argument makes the call approval-required (even for a read-only base,
// because the arguments are not reviewed catalog data); otherwise the base class.
func EffectiveClass(base runtime.Class, extraArgs []string) runtime.Class {
	switch {
	case base == runtime.Forbidden:
		return runtime.Forbidden
	case len(extraArgs) > 0:
		return runtime.ApprovalRequired
	default:
		return base
	}
}

// RequiresHostApproval reports whether the host should ask before the call executes.
func RequiresHostApproval(c runtime.Class) bool {
	return c == runtime.Reversible || c == runtime.ApprovalRequired
}
