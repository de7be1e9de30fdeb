// Package hostenv reads the few environment values the host adapters and hooks depend
// on, the same way everywhere: through a getenv function (never os.Setenv), trimmed,
// and with values a host forgot to expand (a literal "${CLAUDE_PLUGIN_DATA}", see
// anthropics/claude-code#42564) treated as unset rather than as a relative path.
//
// It must never write the environment or touch the file system.
package hostenv

import (
	"os"
	"path/filepath"
	goruntime "runtime"
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

// Home is the user's home directory as the reference's expanduser sees it: USERPROFILE
// then HOME on Windows, HOME then USERPROFILE elsewhere, then os.UserHomeDir.
func Home(getenv func(string) string) string {
	keys := []string{"HOME", "USERPROFILE"}
	if goruntime.GOOS == "windows" {
		keys = []string{"USERPROFILE", "HOME"}
	}
	for _, k := range keys {
		if v := Var(getenv, k); v != "" {
			return v
		}
	}
	h, _ := os.UserHomeDir()
	return h
}

// ExpandHome replaces a leading ~ (alone, or followed by / or \) with Home.
func ExpandHome(p string, getenv func(string) string) string {
	if p == "~" {
		return Home(getenv)
	}
	if strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		return filepath.Join(Home(getenv), p[2:])
	}
	return p
}
