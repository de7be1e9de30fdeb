//go:build !linux && !darwin && !windows

package finalpath

import (
	"os"
	"path/filepath"
)

// of has no handle-based answer on this OS: the name the file was opened by, with links
// resolved.
func of(f *os.File) (string, error) {
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
