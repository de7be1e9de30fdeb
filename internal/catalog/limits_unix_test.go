//go:build unix

package catalog_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
)

// TestReadFileFIFO: a FIFO named as the catalog neither blocks the open (nobody writes
// to it) nor is read: it is not a regular file.
func TestReadFileFIFO(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "catalog.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := catalog.ReadFile(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("ReadFile of a FIFO: %v", err)
	}
}
