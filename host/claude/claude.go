package claude

import (
	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// MsgNoProject is the refusal when the host supplied no project directory.
const MsgNoProject = "Claude project directory was not supplied by the host"

// Label names the project in refusals.
const Label = "the active Claude project"

// Host is the Claude Code adapter. Create it with New.
type Host struct{ host.Contained }

// New returns the Claude adapter for the project projectDir (from
// WINDOWS_DEV_AGENT_PROJECT_DIR, which .mcp.json sets from ${CLAUDE_PROJECT_DIR}),
// resolved once now; getenv expands a leading ~ in arguments (nil means os.Getenv).
func New(projectDir string, getenv func(string) string) *Host {
	return &Host{host.NewContained(projectDir, Label, MsgNoProject, getenv)}
}

// Name is "claude".
func (*Host) Name() string { return "claude" }

// Instructions is empty: Claude needs no initialize instructions.
func (*Host) Instructions() string { return "" }

// AdvertisedSchema returns s unchanged: under Claude the project argument is optional.
func (*Host) AdvertisedSchema(_ tools.Tool, s *schema.Schema) *schema.Schema { return s }
