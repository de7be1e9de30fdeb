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
