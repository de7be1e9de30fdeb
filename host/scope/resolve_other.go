//go:build !windows

package scope

import (
	"errors"
	"os"
	"path/filepath"
)

// caseInsensitive is false off Windows: even on macOS's usually case-insensitive
// volumes, a case mismatch fails closed rather than open.
const caseInsensitive = false

func resolveDir(abs string) (string, error) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", errors.New("not a directory")
	}
	return real, nil
}
