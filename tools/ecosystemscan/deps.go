package ecosystemscan

import (
	"context"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// Deps are the authorities a scan consults for host inventory, so tests can record
// (or forbid) every executable lookup and process start.
type Deps struct {
	Resolve func(env *tools.Env, name string) (string, bool)
	Run     func(ctx context.Context, req proc.Request) proc.Receipt
}

// DefaultDeps are the real resolver and runner.
func DefaultDeps() Deps {
	return Deps{
		Resolve: func(env *tools.Env, name string) (string, bool) {
			return proc.NewResolver(env.Lookup).Resolve(name)
		},
		Run: proc.Run,
	}
}
