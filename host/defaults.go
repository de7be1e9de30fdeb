package host

import (
	"os"
	"path/filepath"

	wda "github.com/windows-dev-agent/wda"
)

// DefaultDataDir is WINDOWS_DEV_AGENT_DATA_DIR, else the OS user cache dir +
// windows-dev-agent, else a folder under the temp dir.
func DefaultDataDir(getenv func(string) string) string {
	if d := getenv("WINDOWS_DEV_AGENT_DATA_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, wda.ServerName)
	}
	return filepath.Join(os.TempDir(), wda.ServerName)
}

// DefaultProjectDir is WINDOWS_DEV_AGENT_PROJECT_DIR, else the process cwd.
func DefaultProjectDir(getenv func(string) string) string {
	if d := getenv("WINDOWS_DEV_AGENT_PROJECT_DIR"); d != "" {
		return d
	}
	d, _ := os.Getwd()
	return d
}
