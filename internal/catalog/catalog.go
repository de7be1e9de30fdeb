package catalog

import (
	"slices"

	"github.com/windows-dev-agent/wda/tools"
)

// Tool is one way to carry out a capability. Argv[0] is a bare executable name that is
// resolved at plan time; the rest are literal arguments (never shell-parsed).
type Tool struct {
	Name string
	Argv []string
}

// Capability is one catalog entry.
type Capability struct {
	ID          string
	Description string
	// Safety is the base class: read-only, reversible, approval-required or forbidden.
	Safety tools.Class
	Tags   []string
	// Tools are in preference order; the first whose executable resolves is used.
	Tools []Tool
	// ProjectFiles are the project files (or facts inside them, "file#key") whose
	// presence in the project's root shows the capability is the project's own
	// (docs/catalog.md, "project_files"). workflow_plan uses them as route evidence.
	ProjectFiles []string
}

// ToolNames returns the configured tool names in preference order.
func (c Capability) ToolNames() []string {
	names := make([]string, len(c.Tools))
	for i, t := range c.Tools {
		names[i] = t.Name
	}
	return names
}

func (c Capability) clone() Capability {
	c.Tags = slices.Clone(c.Tags)
	c.ProjectFiles = slices.Clone(c.ProjectFiles)
	tools := make([]Tool, len(c.Tools))
	for i, t := range c.Tools {
		tools[i] = Tool{Name: t.Name, Argv: slices.Clone(t.Argv)}
	}
	c.Tools = tools
	return c
}

// Catalog is a loaded, validated catalog. It is immutable: accessors return copies.
type Catalog struct {
	ids  []string
	caps map[string]Capability
}

// IDs returns the capability ids in document order.
func (c *Catalog) IDs() []string { return slices.Clone(c.ids) }

// Get returns the capability with this id.
func (c *Catalog) Get(id string) (Capability, bool) {
	cp, ok := c.caps[id]
	if !ok {
		return Capability{}, false
	}
	return cp.clone(), true
}
