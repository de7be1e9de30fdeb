package ecosystemscan

import (
	"context"

	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// deps are the authorities a scan consults for host inventory, so tests can record
// (or forbid) every executable lookup and process start.
type deps struct {
	resolve func(env *tools.Env, name string) (string, bool)
	run     func(ctx context.Context, req proc.Request) proc.Receipt
}

func defaultDeps() deps {
	return deps{
		resolve: func(env *tools.Env, name string) (string, bool) {
			return proc.NewResolver(env.Lookup).Resolve(name)
		},
		run: proc.Run,
	}
}
