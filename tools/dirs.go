package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ResolveDir is the shared directory resolution of project-scoped tools: blank means
// the Env's project directory; otherwise ~ is expanded and the path made absolute with
// links resolved (RealDir). The result must be an existing directory.
func ResolveDir(env *Env, p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		p = env.ProjectDir
	}
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`) {
		home := env.Lookup("HOME")
		if home == "" {
			home = env.Lookup("USERPROFILE")
		}
		if home == "" {
			if h, err := os.UserHomeDir(); err == nil {
				home = h
			}
		}
		p = filepath.Join(home, p[1:])
	}
	return RealDir(p)
}

// RealDir returns the real absolute path of the existing directory p, reached through
// any links: a directory the caller names (a project, a workspace) may itself be a
// link; what is inside it is the caller's business. The error is the contract text
// "Not a directory: <path>".
func RealDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("Not a directory: %s", p)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("Not a directory: %s", abs)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("Not a directory: %s", abs)
	}
	return real, nil
}
