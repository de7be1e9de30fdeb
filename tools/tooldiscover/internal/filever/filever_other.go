//go:build !windows

package filever

import (
	"fmt"
	"runtime"
)

// Version returns the fixed file version of the executable at the absolute path, as
// a.b.c.d. Only Windows has file-version resources.
func Version(path string) (string, error) {
	return "", fmt.Errorf("filever: Windows file-version resources are not read on %s: %s", runtime.GOOS, path)
}
