//go:build !windows

package contain

import (
	"io"
	"os"
)

// holdDir has nothing to hold off Windows: a directory open by descriptor stays the
// same directory whatever happens to its name, and children get it by descriptor
// (docs/process-runner.md).
func holdDir(*os.File, string) (io.Closer, error) { return nil, nil }

func isNotDirWindows(error) bool { return false }
