//go:build !windows

package payload

import "runtime"

// foldCase reports whether overlap detection compares components case-insensitively:
// macOS volumes are case-insensitive by default, so "A" and "a" name one node there.
var foldCase = runtime.GOOS == "darwin"

// splitSeparators are the characters that separate components of a payload path. A
// backslash is an ordinary filename character on Unix.
const splitSeparators = "/"

// checkComponent refuses components the platform would reinterpret. Unix file names
// mean what they say, so there is nothing to refuse beyond what paths.go checks.
func checkComponent(string) error { return nil }
