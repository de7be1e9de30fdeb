package hook

import (
	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// oracles are what the classification of this call consults besides its arguments:
// the class and the argv of a capability in the catalog in force, so capability_run's
// extra arguments are classified after the capability's own argv exactly as the server
// classifies them (docs/tools/capability_run.md, "Safety"). The shell
// classifier is host/classify's, which DecideWith supplies.
func (c *call) oracles() tools.Oracles {
	return tools.Oracles{Catalog: c.catalog, CatalogArgv: c.catalogArgv}
}

// catalog is a capability's class in the catalog in force: the shipped one, or the
// replacement the server also reads (WINDOWS_DEV_AGENT_CATALOG), read only when a
// capability call needs it.
func (c *call) catalog(id string) (tools.Class, bool) {
	if c.catalogPath == "" {
		cl, ok := classify.ShippedCatalog[id]
		return cl, ok
	}
	cp, ok := c.replacement(id)
	return cp.Safety, ok
}

// catalogArgv is the argv of each tool of a capability in the catalog in force.
func (c *call) catalogArgv(id string) ([][]string, bool) {
	if c.catalogPath == "" {
		return classify.ShippedCatalogArgv(id)
	}
	cp, ok := c.replacement(id)
	if !ok {
		return nil, false
	}
	argvs := make([][]string, len(cp.Tools))
	for i, t := range cp.Tools {
		argvs[i] = t.Argv
	}
	return argvs, true
}

// found is the capability a call's replacement catalog gave for id, kept so the class
// and the argv of one call cost one read and one parse, not two.
type found struct {
	id   string
	cp   catalog.Capability
	ok   bool
	done bool
}

// replacement is the capability id of the replacement catalog, read once per call.
func (c *call) replacement(id string) (catalog.Capability, bool) {
	if c.found.done && c.found.id == id {
		return c.found.cp, c.found.ok
	}
	cp, ok := findReplacement(c.catalogPath, id)
	c.found = found{id: id, cp: cp, ok: ok, done: true}
	return cp, ok
}

// findReplacement reads a capability from a replacement catalog. The file is read
// through catalog.ReadFile, which stops past catalog.MaxBytes, and only the one
// capability is decoded and classified (catalog.Find), so a hook's work is bounded by
// the catalog's cap rather than by whatever file the variable names
// (docs/catalog.md, "Limits"). An unreadable, oversized or invalid catalog answers
// "unknown", which classifies an execution as approval-required (and extra arguments
// on their own): the server refuses to start with such a catalog anyway.
func findReplacement(path, id string) (catalog.Capability, bool) {
	src, err := catalog.ReadFile(path)
	if err != nil {
		return catalog.Capability{}, false
	}
	cp, ok, err := catalog.Find(src, id)
	if err != nil || !ok {
		return catalog.Capability{}, false
	}
	return cp, true
}
