package routing

import (
	"fmt"
	"strings"

	"github.com/windows-dev-agent/wda/tools"
)

func phases(r *Route) []Phase {
	route := Phase{Phase: "route", Entry: "Route-changing facts are known.", SafetyClass: tools.ReadOnly,
		Exit: "Exactly one capability is selected, or the route is reported as unresolved."}
	execute := Phase{Phase: "execute", SafetyClass: Unresolved,
		Entry: "A capability is selected and its capability_run plan (execute:false) has been reviewed.",
		Exit:  "The run has finished with a receipt (completed or failed)."}
	switch r.SelectionStatus {
	case Selected:
		id := r.SelectedCandidate.Capability
		route.Action = "Select capability " + id
		execute.SafetyClass = r.SelectedCandidate.SafetyClass
		execute.Action = fmt.Sprintf("Plan capability_run for %s with execute:false, review argv and executable identity, then execute once with the identity echoed unchanged.", id)
	case Ambiguous:
		route.Action = fmt.Sprintf("Keep the tied candidates (%s) and obtain a discriminator from the user or the project before choosing one.",
			strings.Join(r.RouteDiscriminator.Candidates, ", "))
	case MatchedUnavailable:
		m := r.MatchedCandidate
		route.Action = fmt.Sprintf("Capability %s matched, but none of its configured tools are available (%s); install one of them or obtain a different route.",
			m.Capability, strings.Join(m.ConfiguredTools, ", "))
	default:
		route.Action = "Choose a capability only after evidence distinguishes a route; no candidate has discriminating identity evidence."
	}
	if r.SelectionStatus != Selected {
		execute.Action = "Do not execute anything until the route is resolved."
	}
	return []Phase{
		{Phase: "inspect", SafetyClass: tools.ReadOnly,
			Entry:  "The task and the project directory are known.",
			Action: "Gather only facts that can change the route (project files, installed tools) without modifying anything.",
			Exit:   "The facts that distinguish candidate capabilities are known."},
		route,
		execute,
		{Phase: "verify", SafetyClass: tools.ReadOnly,
			Entry:  "The execute phase has ended.",
			Action: "Observe the narrow surface where the effect should exist (test results, lint or build output, working-tree state).",
			Exit:   "The effect is confirmed, or the discrepancy is reported."},
	}
}
