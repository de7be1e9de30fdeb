package guard

import "strings"

// stripPrefix turns a GetFinalPathNameByHandleW result into a DOS path: \\?\UNC\server
// becomes \\server and \\?\C:\ becomes C:\. It is portable so Linux tests cover it.
func stripPrefix(p string) string {
	switch {
	case strings.HasPrefix(p, `\\?\UNC\`):
		return `\\` + p[len(`\\?\UNC\`):]
	case strings.HasPrefix(p, `\\?\`):
		return p[len(`\\?\`):]
	}
	return p
}
