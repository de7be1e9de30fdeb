// Package remote owns the Streamable HTTP face of `wda serve --http` (docs/remote.md):
// which addresses may be served and how (TLS off loopback, --no-auth on loopback only),
// the static bearer tokens and their file, the protected-resource metadata, the Origin
// allow list, and the bounds on request bodies, sessions, idle time and requests in
// flight. The MCP protocol itself is the go-sdk's StreamableHTTPHandler; the tools
// and their pipeline are runtime's, unchanged.
//
// It must never accept a token from anywhere but its file, never write a token to a
// log, an error or an audit record (only its name), and never start a process.
package remote
