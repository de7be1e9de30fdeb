// Package home answers, the same way for every caller, where the user's home
// directory is and what a leading ~ in a path means (docs/platform.md, "Home
// directory"), so ~ resolves alike under every host adapter, in the hooks and in a
// tool's per-call environment.
//
// It reads the environment only through the getenv it is given and must never write
// the environment or touch the file system.
package home

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Dir is the user's home directory read through getenv (nil means os.Getenv): the
// first of the candidates below that, trimmed, is an absolute path, cleaned; "" when
// none is.
//
//   - Windows: USERPROFILE, HOME, HOMEDRIVE+HOMEPATH. USERPROFILE is what Windows sets
//     for every process; HOME is often set by Git Bash or MSYS to the same profile, and
//     HOMEDRIVE+HOMEPATH is the older pair.
//   - elsewhere: HOME, USERPROFILE.
//
// A relative value (".", an unexpanded "${HOME}" or "%USERPROFILE%") is never a home:
// joining under it would name a place relative to whatever the working directory is.
func Dir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, c := range candidates(runtime.GOOS, getenv) {
		if c = strings.TrimSpace(c); c != "" && filepath.IsAbs(c) {
			return filepath.Clean(c)
		}
	}
	return ""
}

// candidates lists the values Dir considers on goos, in order. It takes goos so the
// Windows order is tested on every OS.
func candidates(goos string, getenv func(string) string) []string {
	if goos != "windows" {
		return []string{getenv("HOME"), getenv("USERPROFILE")}
	}
	c := []string{getenv("USERPROFILE"), getenv("HOME")}
	if d, p := getenv("HOMEDRIVE"), getenv("HOMEPATH"); d != "" && p != "" {
		c = append(c, d+p)
	}
	return c
}

// Expand replaces a leading ~ (alone, or followed by / or \, on every OS) with Dir and
// cleans the result. Any other path, and every path when Dir is "", is returned unchanged;
// ~user is not expanded.
func Expand(p string, getenv func(string) string) string {
	rest, ok := "", p == "~"
	if !ok && (strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`)) {
		rest, ok = p[2:], true
	}
	if !ok {
		return p
	}
	h := Dir(getenv)
	if h == "" {
		return p
	}
	return filepath.Join(h, rest)
}
