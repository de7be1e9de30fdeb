package catalog_test

import (
	"testing"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/catalog"
)

// BenchmarkLoadShipped is the catalog's share of every `wda` start.
func BenchmarkLoadShipped(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := catalog.Load(wda.CapabilitiesYAML); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadAtCap is a start-up with the largest replacement catalog allowed
// (MaxCapabilities capabilities, each argv read by the shell classifier).
func BenchmarkLoadAtCap(b *testing.B) {
	src := many(catalog.MaxCapabilities)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := catalog.Load(src); err != nil {
			b.Fatal(err)
		}
	}
}
