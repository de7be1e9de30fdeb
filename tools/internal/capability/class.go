package capability

import (
	"slices"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// EffectiveClass is the class of executing cp with extraArgs, the rule capability_run
// declares (tools.CatalogRef), so the engine's own guard and the pipeline agree:
// forbidden stays forbidden; any caller-supplied extra argument makes the call at least
// approval-required (even for a read-only base, because the arguments are not reviewed
// catalog data), and forbidden when the shell classifier forbids the extra arguments as
// a command line of their own or after the argv of any of cp's tools (extra_args that
// hand cmd.exe `format D:`, or a path after an argv that removes); otherwise the base
// class, which the catalog already raised to forbidden for a forbidden argv
// (docs/catalog.md, "Safety classes").
func EffectiveClass(cp catalog.Capability, extraArgs []string) tools.Class {
	class := cp.Safety
	if len(extraArgs) == 0 {
		return class
	}
	class = tools.MaxClass(class, tools.ApprovalRequired)
	if c, _ := classify.Argv(extraArgs); c == tools.Forbidden {
		return tools.Forbidden
	}
	for _, t := range cp.Tools {
		if c, _ := classify.Argv(append(slices.Clip(t.Argv), extraArgs...)); c == tools.Forbidden {
			return tools.Forbidden
		}
	}
	return class
}

// RequiresHostApproval reports whether the host should ask before the call executes.
func RequiresHostApproval(c tools.Class) bool {
	return c == tools.Reversible || c == tools.ApprovalRequired
}
