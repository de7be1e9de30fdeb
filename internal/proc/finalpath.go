package proc

import "strings"

// stripFinalPathPrefix turns what GetFinalPathNameByHandleW returns into an ordinary
// DOS path: \\?\C:\x becomes C:\x and \\?\UNC\server\share becomes \\server\share.
// It is portable so the rule is tested everywhere.
func stripFinalPathPrefix(p string) string {
	switch {
	case hasPrefixFold(p, `\\?\UNC\`):
		return `\\` + p[len(`\\?\UNC\`):]
	case strings.HasPrefix(p, `\\?\`):
		return p[len(`\\?\`):]
	}
	return p
}

// finalPathMatches is the "exact path" rule of docs/process-runner.md §3.4: the
// handle's final path must be the requested absolute path, compared case-insensitively
// after both are cleaned of trailing separators. Any symlink or junction along the way
// changes the final path and therefore fails.
func finalPathMatches(requested, final string) bool {
	a := strings.TrimRight(stripFinalPathPrefix(requested), `\`)
	b := strings.TrimRight(stripFinalPathPrefix(final), `\`)
	return a != "" && strings.EqualFold(a, b)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
