package main

import (
	"runtime/debug"
	"slices"
)

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// buildSource is " (commit <sha>, <go version>)" when the binary was built from a
// clean checkout with VCS stamping, as every release binary is (docs/release.md); ""
// otherwise.
func buildSource() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return ""
	}
	if modified == "true" {
		rev += ", modified"
	}
	return " (commit " + rev + ", " + bi.GoVersion + ")"
}
