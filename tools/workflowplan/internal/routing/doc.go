// Package routing is the workflow_plan routing algorithm (tools.md §4.4): it tokenizes
// a task and every capability, scores identity (id and tags), discriminating identity
// (identity minus generic operation words) and description evidence, ranks all
// candidates, and decides selected / ambiguous / matched_unavailable / no_match.
//
// Semantic evidence decides the route; tool availability only labels it. Availability
// never breaks a tie and a unique match that cannot run is reported as
// matched_unavailable rather than falling through to a weaker candidate.
//
// It is pure: availability comes in as a function, so it never resolves executables,
// reads PATH or starts a process.
package routing
