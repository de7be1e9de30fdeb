package config

import (
	"os"

	"github.com/windows-dev-agent/wda/host"
)

// DataDir is the data dir a server with host h uses when no --data-dir was given:
// the adapter's own (Claude: WINDOWS_DEV_AGENT_DATA_DIR, else CLAUDE_PLUGIN_DATA; Codex:
// WINDOWS_DEV_AGENT_DATA_DIR, else ${CODEX_HOME:-~/.codex}/plugins/data/windows-dev-agent),
// else runtime.DefaultDataDir.
func DataDir(h host.Host, getenv func(string) string) string {
	if d, ok := h.(interface{ DataDir() string }); ok {
		if dir := d.DataDir(); dir != "" {
			return dir
		}
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	return host.DefaultDataDir(getenv)
}
