package copilot

import (
	"encoding/json"
	"fmt"

	"github.com/tailscale/hujson"
)

// Plugin is one entry of installedPlugins in the Copilot CLI's ~/.copilot/config.json:
// the plugin's name and the folder the CLI installed it to.
type Plugin struct {
	Name      string `json:"name"`
	CachePath string `json:"cache_path"`
}

// InstalledPlugins reads installedPlugins from the bytes of ~/.copilot/config.json,
// which the CLI writes as JSON with // comment lines at its top: it is read with a JSON
// with comments parser (hujson) rather than by dropping lines, so a comment anywhere, or
// "//" inside a string, is read as the grammar says. wda doctor and hostcheck both use it.
func InstalledPlugins(raw []byte) ([]Plugin, error) {
	std, err := hujson.Standardize(raw)
	if err != nil {
		return nil, fmt.Errorf("copilot config: %w", err)
	}
	var cfg struct {
		InstalledPlugins []Plugin `json:"installedPlugins"`
	}
	if err := json.Unmarshal(std, &cfg); err != nil {
		return nil, fmt.Errorf("copilot config: %w", err)
	}
	return cfg.InstalledPlugins, nil
}
