// Package all is the ten tools of Windows Dev Agent. Importing it registers them in
// tools.Default() (each tool package's init does one Register); New builds a fresh
// registry of the ten with the dependencies a binary decided at start-up, such as a
// replacement capability catalog. A test asserts the names, so a forgotten tool fails.
package all

import (
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/capabilityrun"
	"github.com/windows-dev-agent/wda/tools/ecosystemscan"
	"github.com/windows-dev-agent/wda/tools/envinspect"
	"github.com/windows-dev-agent/wda/tools/logsquery"
	"github.com/windows-dev-agent/wda/tools/mcpaudit"
	"github.com/windows-dev-agent/wda/tools/packageinstall"
	"github.com/windows-dev-agent/wda/tools/packagesearch"
	"github.com/windows-dev-agent/wda/tools/sandboxrun"
	"github.com/windows-dev-agent/wda/tools/tooldiscover"
	"github.com/windows-dev-agent/wda/tools/workflowplan"
)

// Config is what the ten tools share beyond their defaults.
type Config struct {
	// Catalog is the capability catalog in force; nil means the shipped one. The
	// classification of capability_run, its engine and workflow_plan's routing all
	// read this one.
	Catalog func() (*catalog.Catalog, error)
}

// New returns a registry of the ten tools running with c.
func New(c Config) *tools.Registry {
	cat := c.Catalog
	if cat == nil {
		cat = catalog.Shipped
	}
	cr := capabilityrun.DefaultDeps()
	cr.Catalog = cat
	wp := workflowplan.DefaultDeps()
	wp.Catalog = cat
	reg := tools.New()
	for _, t := range []tools.Tool{
		envinspect.New(envinspect.DefaultDeps()),
		tooldiscover.New(tooldiscover.DefaultDeps()),
		capabilityrun.New(cr),
		workflowplan.New(wp),
		packagesearch.New(packagesearch.DefaultDeps()),
		packageinstall.New(packageinstall.DefaultDeps()),
		sandboxrun.New(sandboxrun.DefaultDeps()),
		ecosystemscan.New(ecosystemscan.DefaultDeps()),
		logsquery.New(logsquery.DefaultDeps()),
		mcpaudit.New(mcpaudit.DefaultDeps()),
	} {
		reg.Register(t)
	}
	return reg
}
