package copilot

import "github.com/windows-dev-agent/wda/host"

// Binding is how the adapter binds project arguments; its Msg… methods are the
// refusals.
var Binding = host.Absolute{Project: "Current Copilot project directory", Never: "the plugin folder"}

// Instructions is what the host is told at initialize (docs/hosts/copilot.md).
const Instructions = `Windows Dev Agent as an Agent Plugin (GitHub Copilot CLI, VS Code, Cursor).

Project directory: this server runs from the plugin folder and is not told the session's project. Every project-scoped tool marks its project argument (cwd, or workspace_folder for sandbox_run) required: pass the absolute path of the current project directory, never the plugin folder or a relative path such as ".".

Approval: the host owns approval. Plan-first tools take execute:false to return the exact argv and executable identity for review, then execute:true with the reviewed expected_executable, expected_executable_identity_kind and expected_executable_identity_sha256 echoed back unchanged. Under the Copilot CLI the plugin's preToolUse hook asks before approval-required calls, denies forbidden ones and denies a project argument outside the session's directory; the server blocks forbidden calls under every host.`

// Host is the Agent Plugins adapter. Create it with New.
type Host struct{ host.Absolute }

// New returns the adapter.
func New() *Host { return &Host{Binding} }

// Name is "copilot".
func (*Host) Name() string { return "copilot" }

// Instructions is the initialize instructions.
func (*Host) Instructions() string { return Instructions }
