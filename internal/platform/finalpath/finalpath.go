// Package finalpath answers one question for every OS: what absolute path does this
// open file or directory have now? The answer comes from the handle (the kernel's view
// after every link and junction), never from the name it was opened by.
//
// It must never open, create or change anything itself.
package finalpath

import (
	"os"
	"strings"
)

// Of returns the final absolute path of f.
func Of(f *os.File) (string, error) { return of(f) }

// StripVerbatim turns what GetFinalPathNameByHandleW returns into an ordinary DOS path:
// \\?\C:\x becomes C:\x and \\?\UNC\server\share becomes \\server\share (any case of
// "UNC"). It is portable so the rule is tested on every OS.
func StripVerbatim(p string) string {
	switch {
	case len(p) >= 8 && strings.EqualFold(p[:8], `\\?\UNC\`):
		return `\\` + p[8:]
	case strings.HasPrefix(p, `\\?\`):
		return p[4:]
	}
	return p
}
