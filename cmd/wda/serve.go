package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/stdio"
	"github.com/windows-dev-agent/wda/runtime"
)

func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("wda mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hostName := fs.String("host", "generic", "host adapter: "+strings.Join(config.Hosts, ", "))
	dataDir := fs.String("data-dir", "", "data directory (default: WINDOWS_DEV_AGENT_DATA_DIR or the host's own)")
	project := fs.String("project", "", "project directory of the generic host (default: WINDOWS_DEV_AGENT_PROJECT_DIR or the current directory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	s, err := newSession(*hostName, config.Flags{DataDir: *dataDir, ProjectDir: *project}, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "wda mcp: %v\n", err)
		return 2
	}
	startup(s, stderr)
	stopExport := startAuditExport("wda mcp", s.cfg.DataDir, getenv, sessionExportPolicy(s), stderr)
	srv := runtime.NewServer(s.reg, s.opts)
	tr := &stdio.Transport{In: stdin, Out: stdout}
	srv.AddReceivingMiddleware(tr.Middleware())
	code := serve(srv, tr, stderr, shutdownGrace)
	// Records still waiting for the audit lock (another process holds it) are written
	// before the process exits (docs/audit.md, "Writers").
	if err := audit.Flush(auditFlush); err != nil {
		fmt.Fprintf(stderr, "wda mcp: audit records not written before exit: %v\n", err)
	}
	// After the flush, so the last pass ships this server's own last records.
	stopExport()
	return code
}

// auditFlush bounds the wait for queued audit records at exit.
const auditFlush = 5 * time.Second

// shutdownGrace bounds how long the calls in flight may take to end once shutdown
// began; their contexts are cancelled at its start (docs/transport.md, "Shutdown").
const shutdownGrace = 4 * time.Second

// abortWrite bounds the writing of the replies Abort makes, so the process exits
// within about five seconds of the start of shutdown however the client behaves.
const abortWrite = time.Second

// serve runs srv over tr until the session ends. SIGINT, SIGTERM and the end of stdin
// all begin the same orderly shutdown: the calls in flight are cancelled and answered,
// then the process exits 0. Calls that are still running grace later are answered as
// cancelled by the transport and the process exits 1 (so does a client that stopped
// reading stdout). A second signal gets the signal's default action.
func serve(srv *mcp.Server, tr *stdio.Transport, stderr io.Writer, grace time.Duration) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ignoreBrokenPipe()
	done := make(chan error, 1)
	// Run's context is never cancelled: cancelling it closes the SDK session at once,
	// and the replies to the calls in flight would be lost. The session ends through
	// the transport instead, once every request read has been answered.
	go func() { done <- srv.Run(context.Background(), tr) }()
	stopping := tr.ShuttingDown()
	var deadline <-chan time.Time
	for {
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, mcp.ErrConnectionClosed) {
				fmt.Fprintf(stderr, "wda mcp: %v\n", err)
				return 1
			}
			return 0
		case sig := <-sigs:
			signal.Stop(sigs)
			tr.Shutdown(fmt.Errorf("received %v", sig))
		case <-stopping:
			stopping = nil
			deadline = time.After(grace)
		case <-deadline:
			fmt.Fprintf(stderr, "wda mcp: calls still running %v after shutdown began are answered as cancelled\n", grace)
			aborted := make(chan struct{})
			go func() { tr.Abort(); close(aborted) }()
			select {
			case <-aborted:
			case <-time.After(abortWrite):
				// A client that closed stdin and does not read stdout blocks every
				// write; there is nobody left to answer.
				fmt.Fprintln(stderr, "wda mcp: stdout is not being read; exiting without the remaining replies")
			}
			return 1
		}
	}
}

// connectClient connects an MCP client to a new server with the same registry,
// pipeline and audit as `wda mcp`, over an in-memory connection; the human commands
// make their calls through it. close ends both sessions.
//
// close waits (at most shutdownGrace) for calls still running on the server: a call the
// user interrupted has its context cancelled, and its handler stops the process tree
// before the CLI exits.
func connectClient(ctx context.Context, s *session, opts *mcp.ClientOptions) (*mcp.ClientSession, func(), error) {
	srv := runtime.NewServer(s.reg, s.opts)
	var inflight sync.WaitGroup
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			inflight.Add(1)
			defer inflight.Done()
			return next(ctx, method, req)
		}
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "wda-cli", Version: wda.Version}, opts).Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		return nil, nil, err
	}
	closeFn := func() {
		cs.Close()
		drained := make(chan struct{})
		go func() { inflight.Wait(); close(drained) }()
		select {
		case <-drained:
		case <-time.After(shutdownGrace):
		}
		ss.Close()
	}
	return cs, closeFn, nil
}
