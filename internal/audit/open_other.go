//go:build !windows

package audit

import "os"

// openRead opens a segment for reading; on Unix an open file never blocks a rename.
func openRead(path string) (*os.File, error) { return os.Open(path) } //nolint:gosec // G703: the data directory's own segment names
