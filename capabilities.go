// Package wda is the module root. It only embeds data shipped inside the binary (the
// capability catalog); it holds no logic and must never import the rest of the module,
// so that any package may import it without a cycle.
package wda

import _ "embed"

// CapabilitiesYAML is the shipped capability catalog (capabilities.yaml), parsed by
// runtime/catalog.
//
//go:embed capabilities.yaml
var CapabilitiesYAML []byte
