// Package routing is the workflow_plan routing algorithm (docs/tools/workflow_plan.md):
// it tokenizes a task and every candidate (each capability of the catalog, and each
// task the project declares for itself), scores the task's operation, identity (id,
// tags and tool names; a project task's name), discriminating identity (identity
// minus generic operation words), project evidence (the catalog's project_files found
// in the project, or the project's own task the task names) and description content
// words, ranks all candidates, and decides selected / ambiguous / matched_unavailable
// / no_match, package_setup for a task that installs a package, or other_tool for a
// question another tool answers. It also owns the two views of its result: compact
// by default, the full breakdown on request (compact.go).
//
// Semantic evidence decides the route; tool availability only labels it. Availability
// never breaks a tie, and a unique match that cannot run is reported as
// matched_unavailable rather than falling through to a weaker candidate. Project files
// choose among the tools of an operation the task asks for; they never make a task
// into an operation, never override the task's own subject and never select a
// capability that needs approval on generic words. A project task counts only when
// the task names it (its name, or its quoted command), never on a word such as "run".
//
// It is pure: availability, project evidence and project tasks come in as values, so
// it never resolves executables, reads PATH or files, or starts a process.
package routing
