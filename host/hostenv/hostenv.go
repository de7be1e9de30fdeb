// Package hostenv reads the few environment values the host adapters and hooks depend
// on, the same way everywhere: through a getenv function (never os.Setenv), trimmed,
// and with values a host forgot to expand (a literal "${CLAUDE_PLUGIN_DATA}", see
// anthropics/claude-code#42564) treated as unset rather than as a relative path.
//
// The home directory and ~ are internal/platform/home's (docs/platform.md).
//
// It must never write the environment or touch the file system.
package hostenv

import (
	"os"
	"strings"
)

// Var returns getenv(key) trimmed, or "" when it is blank or still holds an unexpanded
// ${...} or %...% placeholder. A nil getenv reads os.Getenv.
func Var(getenv func(string) string, key string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	v := strings.TrimSpace(getenv(key))
	if strings.Contains(v, "${") || (strings.Count(v, "%") >= 2 && strings.HasPrefix(v, "%")) {
		return ""
	}
	return v
}
