package catalog

import (
	"maps"
	"slices"

	"github.com/windows-dev-agent/wda/tools"
)

// Extend is the catalog in force when a user catalog is configured (docs/catalog.md,
// "A user catalog"): base's entries in base's order, then user's new ids in user's
// order. An id both have is user's definition in base's place, with the class never
// below base's (Over): a user catalog adds and redefines, but cannot make a shipped
// capability look safer than the shipped catalog says it is.
func Extend(base, user *Catalog) *Catalog {
	c := &Catalog{ids: slices.Clone(base.ids), caps: maps.Clone(base.caps)}
	for _, id := range user.ids {
		b, had := base.caps[id]
		var floor *Capability
		if had {
			floor = &b
		} else {
			c.ids = append(c.ids, id)
		}
		c.caps[id] = Over(floor, user.caps[id])
	}
	return c
}

// Over is a user catalog's entry for an id the base catalog may have (base nil when it
// has not): the user's definition, its class raised to base's when base's is higher.
// The hooks apply it to the one entry a call names, Extend to every entry.
func Over(base *Capability, user Capability) Capability {
	if base != nil {
		user.Safety = tools.MaxClass(user.Safety, base.Safety)
	}
	return user
}
