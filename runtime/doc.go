// Package runtime composes the ten tools with the safety gate, the host binding and the
// audit sink into an *mcp.Server.
//
// It owns the tool registry (a tool is data: name, order, description, annotations,
// typed In/Out, Classify and a handler), the per-call environment handed to handlers,
// and the receiving middleware that every tools/call passes: strict validation with
// defaults, host project binding, blocking of forbidden calls, and one audit record per
// finished call.
//
// It must never import a tool package (tools import runtime, not the reverse), never
// start a process itself (internal/proc owns that), and never write to stdout.
package runtime
