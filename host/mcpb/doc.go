// Package mcpb is the host adapter of MCP Bundle hosts: Claude Desktop and Windows'
// On-device Agent Registry loading the .mcpb built from dist/mcpb (docs/hosts/mcpb.md).
//
// A bundle's host starts the server with no project and no hooks: the format has no
// variable for a workspace and no approval layer of its own. So the project argument
// of the project-scoped tools is required, a string, absolute before any resolution
// and an existing directory, and tools/list marks it required (host.Absolute). The
// host's tool approval, which shows the argument, is the only check of which directory
// a call names; the server still blocks forbidden calls.
//
// The manifest's static tools/list and initialize answers are rendered from this
// adapter (gen), so they must stay a pure function of the registry.
//
// It must never mutate the process environment or the shared tool schemas, and never
// write to stdout.
package mcpb
