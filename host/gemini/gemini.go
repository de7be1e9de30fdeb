package gemini

import (
	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// MsgNoProject is the refusal when the host supplied no workspace.
const MsgNoProject = "Gemini CLI workspace directory was not supplied by the host"

// Label names the project in refusals.
const Label = "the Gemini CLI workspace"

// Host is the Gemini CLI adapter. Create it with New.
type Host struct{ host.Contained }

// New returns the adapter for the workspace projectDir (from
// WINDOWS_DEV_AGENT_PROJECT_DIR, which gemini-extension.json sets from
// ${workspacePath}), resolved once now; getenv expands a leading ~ in arguments (nil
// means os.Getenv).
func New(projectDir string, getenv func(string) string) *Host {
	return &Host{host.NewContained(projectDir, Label, MsgNoProject, getenv)}
}

// Name is "gemini".
func (*Host) Name() string { return "gemini" }

// Instructions is empty: the extension's GEMINI.md context file says what the model
// needs to know.
func (*Host) Instructions() string { return "" }

// AdvertisedSchema returns s unchanged: the project argument is optional.
func (*Host) AdvertisedSchema(_ tools.Tool, s *schema.Schema) *schema.Schema { return s }
