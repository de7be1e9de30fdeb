package mcptest

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Connect connects an in-memory MCP client to srv, as a host would over stdio, and
// closes both sessions when the test ends.
func Connect(t testing.TB, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	return ConnectWith(t, srv, nil)
}

// ConnectWith is Connect with the client's options, for tests that watch what the
// server sends on its own during a call (notifications/progress, log messages).
func ConnectWith(t testing.TB, srv *mcp.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}
