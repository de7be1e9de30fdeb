package main

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
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

// TestUserCatalogExtends (issue 23 §2): the catalog wda serves with
// WINDOWS_DEV_AGENT_CATALOG is the shipped one plus the user's: every shipped id stays,
// a new id comes after them, and a shipped id the user redefines keeps at least its
// shipped class.
func TestUserCatalogExtends(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "mine.yaml")
	src := "test-go: {description: 'Tests, short.', safety: read-only, tools: [{name: go, argv: [go, test, -short, ./...]}]}\n" +
		"docs-serve: {description: Serve the docs., safety: approval-required, tools: [{name: mkdocs, argv: [mkdocs, serve]}]}\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	shipped, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	got, err := loadCatalog(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := got.IDs()
	if want := append(shipped.IDs(), "docs-serve"); !slices.Equal(ids, want) {
		t.Fatalf("ids %v, want the shipped ones then docs-serve", ids)
	}
	was, _ := shipped.Get("test-go")
	if cp, _ := got.Get("test-go"); cp.Safety != was.Safety || cp.Description != "Tests, short." {
		t.Errorf("test-go %+v: want the user's definition at the shipped class %s", cp, was.Safety)
	}
	if _, err := loadCatalog(filepath.Join(t.TempDir(), "none.yaml")); err == nil || !strings.Contains(err.Error(), "WINDOWS_DEV_AGENT_CATALOG") {
		t.Errorf("a missing user catalog: %v, want a start-up error naming the variable", err)
	}
}
