package codex

import "path/filepath"

// IsAbsolute reports whether p is absolute on this platform before any resolution:
// on Windows a drive-relative (C:x) or rooted-without-drive (\x) path is not.
func IsAbsolute(p string) bool { return filepath.IsAbs(p) }
