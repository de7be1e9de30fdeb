// Package routing is the workflow_plan routing algorithm (docs/tools/workflow_plan.md):
// it tokenizes a task and every capability, scores the task's operation, identity (id,
// tags and tool names), discriminating identity (identity minus generic operation
// words), project evidence (the catalog's project_files found in the project) and
// description content words, ranks all candidates, and decides selected / ambiguous /
// matched_unavailable / no_match, or package_setup for a task that installs a package.
//
// Semantic evidence decides the route; tool availability only labels it. Availability
// never breaks a tie, and a unique match that cannot run is reported as
// matched_unavailable rather than falling through to a weaker candidate. Project files
// choose among the tools of an operation the task asks for; they never make a task
// into an operation, never override the task's own subject and never select a
// capability that needs approval.
//
// It is pure: availability and project evidence come in as values, so it never
// resolves executables, reads PATH or files, or starts a process.
package routing
