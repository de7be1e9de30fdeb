package sandboxrun

import (
	"context"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
	"github.com/windows-dev-agent/wda/tools/sandboxrun/internal/payload"
)

// deps are the authorities the handler consults, so tests control every one of them
// (route state, binaries, identities, process starts) without a Windows machine.
type deps struct {
	wslRoute     func() discovery.RouteState
	systemBinary func(name string) (string, error)
	resolve      func(env *tools.Env, name string) (string, bool)
	guardCheck   func(root, rel string) (abs string, exists bool, err error)
	fingerprint  func(path string) (proc.Identity, error)
	run          func(ctx context.Context, req proc.Request) proc.Receipt
	launch       func(req proc.Request) (*proc.Launched, error)
	stage        func(dataDir string, sel *payload.Selection, command string) (*payload.Bundle, error)
	removeBundle func(dir string) error
	sweep        func(dataDir string) error
}

func defaultDeps() deps {
	return deps{
		wslRoute:     discovery.WSLRoute,
		systemBinary: proc.SystemBinary,
		resolve: func(env *tools.Env, name string) (string, bool) {
			return proc.NewResolver(env.Lookup).Resolve(name)
		},
		guardCheck:   guard.Check,
		fingerprint:  proc.Fingerprint,
		run:          proc.Run,
		launch:       proc.Launch,
		stage:        payload.Stage,
		removeBundle: payload.Remove,
		sweep:        payload.SweepStale,
	}
}
