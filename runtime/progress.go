package runtime

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/tools"
)

// progressSink turns a handler's progress reports into notifications/progress for a
// client that sent a progressToken; nil (no reports) otherwise (docs/transport.md,
// "Progress"). Counted work is sent as MCP means it: progress is the number of steps
// done and total the number of steps. Other work has no total, and progress is the
// elapsed time in seconds. Either only grows, as MCP requires of the progress value:
// a report that does not grow it is not sent.
func progressSink(ctx context.Context, req *mcp.CallToolRequest) func(tools.Progress) {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	var mu sync.Mutex
	last := -1.0
	return func(p tools.Progress) {
		mu.Lock()
		defer mu.Unlock()
		n := &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: p.Elapsed.Seconds(), Message: p.Message}
		if p.Total > 0 {
			n.Progress, n.Total = float64(p.Done), float64(p.Total)
		}
		if n.Progress <= last {
			return
		}
		last = n.Progress
		_ = req.Session.NotifyProgress(ctx, n)
	}
}
