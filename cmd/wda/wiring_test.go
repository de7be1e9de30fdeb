package main

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
)

// TestReplacementCatalogBounded: a replacement catalog (WINDOWS_DEV_AGENT_CATALOG)
// larger than catalog.MaxBytes is refused after reading at most MaxBytes+1 bytes of
// it, and a folder is refused as not a regular file (catalog.ReadFile). Before, the
// whole file was read into memory first: a 64 MiB file cost 64 MiB.
func TestReplacementCatalogBounded(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse where the file system allows: the size is what matters, not the disk.
	if err := f.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()

	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	_, err = loadCatalog(big)
	goruntime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "larger than") || !strings.Contains(err.Error(), "WINDOWS_DEV_AGENT_CATALOG") {
		t.Fatalf("a 64 MiB catalog: err = %v, want a refusal naming the variable and the limit", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*catalog.MaxBytes {
		t.Fatalf("refusing a 64 MiB catalog allocated %d bytes: it was read whole", alloc)
	}

	if _, err := loadCatalog(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a folder as the catalog: err = %v, want not a regular file", err)
	}
}
