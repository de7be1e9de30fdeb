package ecosystemscan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/tools"
)

// CodexPluginsFor computes the codex_plugins inventory from the per-call environment:
// root = ${CODEX_HOME:-~/.codex}/plugins, personal = directories under root except
// cache and data, cache_marketplaces = directories under root/cache, config_file =
// $CODEX_HOME/config.toml when it is a file (else null). Unreadable parts become
// warnings. It returns nil (and a warning) when no Codex home can be established.
// ecosystem_scan adds it itself on Codex host scans; a Codex host adapter may call it.
func CodexPluginsFor(env *tools.Env) (*CodexPlugins, []string) {
	// The wording is contractual (docs/tools/ecosystem_scan.md); it also covers a
	// relative CODEX_HOME and, on Windows, USERPROFILE (config.CodexHome, home.Dir).
	home := config.CodexHome(env.Lookup)
	if home == "" {
		return nil, []string{"Codex home could not be established (CODEX_HOME is unset and no home directory is known)"}
	}
	return CodexPluginsAt(home)
}

// CodexPluginsAt is CodexPluginsFor for a known Codex home directory.
func CodexPluginsAt(codexHome string) (*CodexPlugins, []string) {
	var warnings []string
	root := filepath.Join(codexHome, "plugins")
	cp := &CodexPlugins{Root: root, Personal: []string{}, CacheMarketplaces: []string{}}
	names, err := childNames(root, true)
	if err != nil {
		warnings = append(warnings, fmt.Sprintf("Could not read %s: %v", root, err))
	}
	for _, n := range names {
		if n != "cache" && n != "data" {
			cp.Personal = append(cp.Personal, n)
		}
	}
	if slices.Contains(names, "cache") {
		cache := filepath.Join(root, "cache")
		if cp.CacheMarketplaces, err = childNames(cache, true); err != nil {
			cp.CacheMarketplaces = []string{}
			warnings = append(warnings, fmt.Sprintf("Could not read %s: %v", cache, err))
		}
	}
	cfg := filepath.Join(codexHome, "config.toml")
	if fi, err := os.Stat(cfg); err == nil && fi.Mode().IsRegular() {
		cp.ConfigFile = &cfg
	}
	return cp, warnings
}
