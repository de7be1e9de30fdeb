package sandboxrun

import (
	"context"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
	"github.com/windows-dev-agent/wda/tools/sandboxrun/internal/payload"
)

// Deps are the authorities the handler consults, so tests control every one of them
// (route state, binaries, identities, process starts) without a Windows machine.
type Deps struct {
	WslRoute     func() discovery.RouteState
	SystemBinary func(name string) (string, error)
	Resolve      func(env *tools.Env, name string) (string, bool)
	GuardCheck   func(p *tools.Project, rel string) (guard.Entry, error)
	Fingerprint  func(path string) (proc.Identity, error)
	Run          func(ctx context.Context, req proc.Request) proc.Receipt
	Launch       func(req proc.Request) (*proc.Launched, error)
	Stage        func(dataDir string, sel *payload.Selection, command string) (*payload.Bundle, error)
	RemoveBundle func(dir string) error
	Sweep        func(dataDir string) error
}

func DefaultDeps() Deps {
	return Deps{
		WslRoute:     discovery.WSLRoute,
		SystemBinary: proc.SystemBinary,
		Resolve: func(env *tools.Env, name string) (string, bool) {
			return proc.NewResolver(env.Lookup).Resolve(name)
		},
		GuardCheck:   guard.Check,
		Fingerprint:  proc.Fingerprint,
		Run:          proc.Run,
		Launch:       proc.Launch,
		Stage:        payload.Stage,
		RemoveBundle: payload.Remove,
		Sweep:        payload.SweepStale,
	}
}
