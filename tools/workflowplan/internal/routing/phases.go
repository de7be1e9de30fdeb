package routing

import (
	"fmt"
	"strings"

	"github.com/windows-dev-agent/wda/tools"
)

func phases(r *Route) []Phase {
	inspect := Phase{Phase: "inspect", SafetyClass: tools.ReadOnly,
		Entry:  "The task and the project directory are known.",
		Action: "Gather only facts that can change the route (project files, installed tools) without modifying anything.",
		Exit:   "The facts that distinguish candidate capabilities are known."}
	if p := r.ProjectEvidence; p.Inspected {
		found := "none of the catalog's project files"
		if len(p.Found) > 0 {
			found = strings.Join(p.Found, ", ")
		}
		inspect.Action = "The project's root was inspected (found: " + found + "); gather only further facts that can change the route (installed tools, the user's intent) without modifying anything."
	}
	route := Phase{Phase: "route", Entry: "Route-changing facts are known.", SafetyClass: tools.ReadOnly,
		Exit: "Exactly one capability is selected, or the route is reported as unresolved."}
	execute := Phase{Phase: "execute", SafetyClass: Unresolved,
		Entry: "A capability is selected and its capability_run plan (execute:false) has been reviewed.",
		Exit:  "The run has finished with a receipt (completed or failed)."}
	verify := Phase{Phase: "verify", SafetyClass: tools.ReadOnly,
		Entry:  "The execute phase has ended.",
		Action: "Observe the narrow surface where the effect should exist (test results, lint or build output, working-tree state).",
		Exit:   "The effect is confirmed, or the discrepancy is reported."}
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
		route.Action = fmt.Sprintf("Capability %s matched, but it cannot run the task as asked with the installed tools (configured: %s); install the tool or obtain a different route.",
			m.Capability, strings.Join(m.ConfiguredTools, ", "))
	case PackageSetup:
		s := r.PackageSetup
		route.Action = fmt.Sprintf("Route to package setup for %q: no catalog capability installs packages. Find the exact package id with package_search, then plan it with package_install.", s.Query)
		route.Exit = "The package id to install is chosen from package_search's matches, or the route is reported as unresolved."
		execute.SafetyClass = tools.ApprovalRequired
		execute.Entry = "An exact package id is chosen and its package_install plan (execute:false) has been reviewed."
		execute.Action = "Call package_search with search_arguments, choose the exact id from its matches (ask when several fit), call package_install with that id and execute:false, review argv and executable identity, then execute once with the identity echoed unchanged."
		execute.Exit = "The installer has finished with a receipt (completed or failed)."
		verify.Action = "Confirm the installed program is found and reports its version (tool_discover); an installer's exit code is not proof that it works."
	case OtherTool:
		nt := r.NextTool
		route.Action = "Route to " + nt.Name + ": " + nt.Reason
		route.Exit = "The tool to call and its arguments are known."
		execute.SafetyClass = nt.Class
		execute.Entry = "The next_tool arguments are complete."
		if len(nt.Missing) > 0 {
			execute.Entry = "The arguments the task did not give (" + strings.Join(nt.Missing, ", ") + ") have been obtained from the user."
		}
		execute.Action = "Call " + nt.Name + " with next_tool.arguments."
		execute.Exit = "The tool has answered."
		if nt.Name == ToolSandboxRun {
			execute.Action = "Call sandbox_run with next_tool.arguments and execute:false, review argv and executable identity, then execute once with the identity echoed unchanged."
			execute.Exit = "The run has finished with a receipt (completed, failed or unknown)."
		}
		verify.Action = "Read the tool's answer where the question is answered (its facts, records or matches); a missing fact is reported as unknown, not as absent."
	default:
		route.Action = "Choose a capability only after evidence distinguishes a route; no candidate has discriminating identity or project evidence."
	}
	if r.SelectionStatus != Selected && r.SelectionStatus != PackageSetup && r.SelectionStatus != OtherTool {
		execute.Action = "Do not execute anything until the route is resolved."
	}
	briefs(r, &inspect, &route, &execute, &verify)
	return []Phase{inspect, route, execute, verify}
}

// briefs are the compact view's actions (docs/tools/workflow_plan.md, "Phases"): what
// the next step needs, without restating next_tool or the discriminator.
func briefs(r *Route, inspect, route, execute, verify *Phase) {
	inspect.Brief = "No project is bound."
	if p := r.ProjectEvidence; p.Inspected {
		inspect.Brief = "Found none of the catalog's project files."
		if len(p.Found) > 0 {
			inspect.Brief = "Found " + strings.Join(p.Found, ", ") + "."
		}
	}
	execute.Brief = "Nothing runs until the route is resolved."
	verify.Brief = "Check the effect: test results, build output, working tree."
	switch r.SelectionStatus {
	case Selected:
		route.Brief = "Selected " + r.SelectedCandidate.Capability + "."
		execute.Brief = "Call next_tool."
	case Ambiguous:
		route.Brief = "Ask which of " + strings.Join(r.RouteDiscriminator.Candidates, ", ") + " is meant."
	case MatchedUnavailable:
		route.Brief = r.MatchedCandidate.Capability + " matched, but it cannot run as asked with the installed tools."
	case PackageSetup:
		route.Brief = fmt.Sprintf("Package setup for %q.", r.PackageSetup.Query)
		execute.Brief = "package_search, choose the exact id, then plan, review and run package_install."
		verify.Brief = "Check that the program is found and reports its version."
	case OtherTool:
		route.Brief = "Route to " + r.NextTool.Name + "."
		execute.Brief = "Call next_tool."
		if len(r.NextTool.Missing) > 0 {
			execute.Brief = "Ask for " + strings.Join(r.NextTool.Missing, ", ") + ", then call next_tool."
		}
		if r.NextTool.Name == ToolSandboxRun {
			execute.Brief = strings.TrimSuffix(execute.Brief, ".") + " (execute:false); review, then run its execute_arguments."
		}
		verify.Brief = "Read the answer; a missing fact is unknown, not absent."
	default:
		route.Brief = "Nothing matched: see route_discriminator."
	}
}
