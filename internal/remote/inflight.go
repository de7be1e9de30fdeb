package remote

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CodeBusy is the JSON-RPC error of a request refused for want of room, the stdio
// transport's code (docs/transport.md, "Concurrency: work in flight and the queue").
const CodeBusy = -32005

// Inflight bounds one session's requests the way the stdio transport does
// (docs/transport.md, "Concurrency: work in flight and the queue"; docs/remote.md, "Limits"): at most run of them are
// handled at once, at most wait more wait for a slot in order of arrival, and a
// request beyond both is answered at once with CodeBusy and never started.
// Notifications (a cancellation among them) always go straight through.
func Inflight(run, wait int) mcp.Middleware { return inflight(run, wait, nil) }

// inflight is Inflight with waited, when not nil, called once a request is queued
// (tests synchronise on it instead of sleeping).
func inflight(run, wait int, waited func()) mcp.Middleware {
	var mu sync.Mutex
	slots := map[mcp.Session]*slot{}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if strings.HasPrefix(method, "notifications/") {
				return next(ctx, method, req)
			}
			key := req.GetSession()
			mu.Lock()
			s := slots[key]
			if s == nil {
				s = &slot{run: make(chan struct{}, run)}
				slots[key] = s
			}
			if len(s.run) == cap(s.run) && s.waiting >= wait {
				mu.Unlock()
				return nil, &jsonrpc.Error{Code: CodeBusy, Message: fmt.Sprintf(
					"server busy: %d requests of this session are running and %d waiting; this request was not started: send it again once replies arrive", run, wait)}
			}
			s.refs++
			s.waiting++
			mu.Unlock()
			if waited != nil {
				waited()
			}
			release := func(started bool) {
				mu.Lock()
				if started {
					<-s.run
				}
				if s.refs--; s.refs == 0 {
					delete(slots, key)
				}
				mu.Unlock()
			}
			select {
			case s.run <- struct{}{}:
				mu.Lock()
				s.waiting--
				mu.Unlock()
			case <-ctx.Done():
				mu.Lock()
				s.waiting--
				mu.Unlock()
				release(false)
				return nil, ctx.Err()
			}
			defer release(true)
			return next(ctx, method, req)
		}
	}
}

type slot struct {
	run     chan struct{}
	waiting int
	refs    int
}
