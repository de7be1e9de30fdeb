// Package runtime is the MCP core: it serves the tools of a registry on an *mcp.Server
// (NewServer) or mounts them on an embedder's own server (Mount), each through one
// pipeline (docs/architecture.md):
//
//	decode once → validate → bind the project argument → classify → block or call →
//	result → audit
//
// A validation failure or a refused binding is a tool result with isError set and
// status invalid_input (MCP 2025-11-25, SEP-1303), a forbidden call a blocked result;
// unknown tools and malformed requests stay JSON-RPC errors. The pipeline is installed
// per tool, so an embedder's own tools on the same server are never touched, and
// nothing exported lets a caller skip a step.
//
// It is the only package of the module besides the binary that imports the MCP SDK.
// It must never import a tool package, never start a process (internal/proc owns
// that) and never write to stdout.
package runtime
