package catalog

import (
	"sync"

	wda "github.com/windows-dev-agent/wda"
)

var shipped = sync.OnceValues(func() (*Catalog, error) { return Load(wda.CapabilitiesYAML) })

// Shipped returns the catalog embedded in the binary, parsed once. Hook processes
// classify capability_run calls with it and must not re-parse per call.
func Shipped() (*Catalog, error) { return shipped() }

// LoadOrShipped loads src, or returns the shipped catalog when src is nil (an Env
// without a catalog of its own).
func LoadOrShipped(src []byte) (*Catalog, error) {
	if src == nil {
		return Shipped()
	}
	return Load(src)
}
