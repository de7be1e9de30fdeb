package discovery

import (
	"context"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// RunnerFunc adapts a function to proc.Runner.
type RunnerFunc func(context.Context, proc.Request) proc.Receipt

// Run implements proc.Runner.
func (f RunnerFunc) Run(ctx context.Context, req proc.Request) proc.Receipt { return f(ctx, req) }

// DefaultRunner starts processes through internal/proc, the only package allowed to.
var DefaultRunner proc.Runner = RunnerFunc(proc.Run)
