package config

import (
	"fmt"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/claude"
	"github.com/windows-dev-agent/wda/host/codex"
)

// Names are the host names ByName accepts, in the order help text lists them.
var Names = []string{"claude", "codex", "generic"}

// ByName returns the adapter for name ("claude", "codex" or "generic"). getenv is the
// environment the adapter reads at construction and per call (nil means os.Getenv);
// it is never written.
func ByName(name string, getenv func(string) string) (host.Host, error) {
	switch name {
	case "claude":
		return claude.New(getenv), nil
	case "codex":
		return codex.New(getenv), nil
	case "generic":
		return host.Generic{}, nil
	}
	return nil, fmt.Errorf("unknown host %q (want claude, codex or generic)", name)
}
