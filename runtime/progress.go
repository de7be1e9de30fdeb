package runtime

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/tools"
)

// progressSink turns a handler's progress reports into notifications/progress for a
// client that sent a progressToken; nil (no reports) otherwise. Progress is the
// elapsed time in seconds, which only grows, as MCP requires of the progress value.
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
		secs := p.Elapsed.Seconds()
		if secs <= last {
			return
		}
		last = secs
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: secs, Message: p.Message})
	}
}
