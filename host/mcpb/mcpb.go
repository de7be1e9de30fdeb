package mcpb

import "github.com/windows-dev-agent/wda/host"

// Binding is how the adapter binds project arguments; its Msg… methods are the
// refusals.
var Binding = host.Absolute{Project: "Project directory", Never: "the bundle's folder"}

// Instructions is what the host is told at initialize (docs/hosts/mcpb.md).
const Instructions = `Windows Dev Agent as an MCP Bundle (Claude Desktop, Windows On-device Agent Registry).

Project directory: the host gives this server no project. Every project-scoped tool marks its project argument (cwd, or workspace_folder for sandbox_run) required: pass the absolute path of the folder the user named, never the bundle's folder or a relative path such as ".". Ask the user for it when it is not known.

Approval: the host owns approval; this bundle has no hooks of its own. Plan-first tools take execute:false to return the exact argv and executable identity for review, then execute:true with the reviewed expected_executable, expected_executable_identity_kind and expected_executable_identity_sha256 echoed back unchanged. The server blocks forbidden calls whatever the host approves.`

// Host is the MCPB adapter. Create it with New.
type Host struct{ host.Absolute }

// New returns the adapter.
func New() *Host { return &Host{Binding} }

// Name is "mcpb".
func (*Host) Name() string { return "mcpb" }

// Instructions is the initialize instructions.
func (*Host) Instructions() string { return Instructions }
