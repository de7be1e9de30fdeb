//go:build !windows && !linux && !darwin

package proc

import (
	"fmt"
	"os"
	"runtime"
)

// heldWorkDir has no way to name a held directory to the child on this platform.
func heldWorkDir(*os.File) (workDir, error) {
	return workDir{}, fmt.Errorf("not supported on %s: %w", runtime.GOOS, errUnsupported)
}
