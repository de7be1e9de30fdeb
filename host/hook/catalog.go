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

// catalog is a capability's class in the catalog in force: the shipped one, extended
// by the user catalog the server also reads (WINDOWS_DEV_AGENT_CATALOG, docs/catalog.md,
// "A user catalog"), which is read only when a capability call needs it. A user entry
// for a shipped id never has a class below the shipped one (catalog.Over).
func (c *call) catalog(id string) (tools.Class, bool) {
	shipped, inShipped := classify.ShippedCatalog[id]
	if c.catalogPath == "" {
		return shipped, inShipped
	}
	u, st := c.user(id)
	switch st {
	case userUnreadable:
		return "", false
	case userLacks:
		return shipped, inShipped
	}
	var base *catalog.Capability
	if inShipped {
		base = &catalog.Capability{Safety: shipped}
	}
	return catalog.Over(base, u).Safety, true
}

// catalogArgv is the argv of each tool of a capability in the catalog in force: the
// user catalog's entry when it has the id, else the shipped one's.
func (c *call) catalogArgv(id string) ([][]string, bool) {
	if c.catalogPath == "" {
		return classify.ShippedCatalogArgv(id)
	}
	u, st := c.user(id)
	switch st {
	case userUnreadable:
		return nil, false
	case userLacks:
		return classify.ShippedCatalogArgv(id)
	}
	argvs := make([][]string, len(u.Tools))
	for i, t := range u.Tools {
		argvs[i] = t.Argv
	}
	return argvs, true
}

// userState is what the user catalog says of an id.
type userState uint8

const (
	userHas userState = iota
	// userLacks: the catalog was read and has no such id; the shipped entry stands.
	userLacks
	// userUnreadable: the catalog cannot be read, parsed or accepted, or the entry is
	// broken: the class is unknown (approval-required for an execution).
	userUnreadable
)

// found is the capability a call's user catalog gave for id, kept so the class and the
// argv of one call cost one read and one parse, not two.
type found struct {
	id   string
	cp   catalog.Capability
	st   userState
	done bool
}

// user is the user catalog's capability id, read once per call.
func (c *call) user(id string) (catalog.Capability, userState) {
	if c.found.done && c.found.id == id {
		return c.found.cp, c.found.st
	}
	cp, st := findUser(c.catalogPath, id)
	c.found = found{id: id, cp: cp, st: st, done: true}
	return cp, st
}

// findUser reads a capability from a user catalog. The file is read through
// catalog.ReadFile, which stops past catalog.MaxBytes, and only the one capability is
// decoded and classified (catalog.Find), so a hook's work is bounded by the catalog's
// cap rather than by whatever file the variable names (docs/catalog.md, "Limits"). An
// unreadable, oversized or invalid catalog, or a broken entry, is userUnreadable, which
// classifies an execution as approval-required (and extra arguments on their own): the
// server refuses to start with such a catalog anyway.
func findUser(path, id string) (catalog.Capability, userState) {
	src, err := catalog.ReadFile(path)
	if err != nil {
		return catalog.Capability{}, userUnreadable
	}
	cp, ok, err := catalog.Find(src, id)
	switch {
	case err != nil:
		return catalog.Capability{}, userUnreadable
	case !ok:
		return catalog.Capability{}, userLacks
	}
	return cp, userHas
}
