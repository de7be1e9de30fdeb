package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/remote"
	"github.com/windows-dev-agent/wda/runtime"
)

const serveUsage = `usage: wda serve --http HOST:PORT --root DIR [--root DIR ...] (--token-file FILE | --no-auth)
                 [--tls-cert FILE --tls-key FILE] [--allow-origin ORIGIN ...] [--auth-server URL ...]
                 [--public-url URL] [--max-sessions N] [--idle-timeout DURATION] [--max-body BYTES] [--data-dir DIR]

Serves the ten tools over MCP Streamable HTTP at /mcp, for a client on another machine
(docs/remote.md). Every address requires a bearer token from --token-file ("NAME TOKEN"
lines, readable by the service account only); any address but loopback also requires
TLS. --no-auth is accepted on a loopback address only. Projects are confined to the
--root folders. Hooks do not run remotely; the server's own blocking still applies.
`

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// runServe is `wda serve --http` (docs/remote.md). listen opens the listener (a test
// passes its own); ctx ends the server.
func runServe(ctx context.Context, args []string, stderr io.Writer, getenv func(string) string,
	listen func(addr string) (net.Listener, error)) int {
	fs := flag.NewFlagSet("wda serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, serveUsage) }
	var c remote.Config
	var roots multiFlag
	fs.StringVar(&c.Addr, "http", "", "HOST:PORT to serve Streamable HTTP on")
	fs.Var(&roots, "root", "a folder projects may be in (repeatable)")
	fs.StringVar(&c.TokenFile, "token-file", "", "file of NAME TOKEN lines, readable by the service account only")
	fs.BoolVar(&c.NoAuth, "no-auth", false, "serve without authorization (loopback only, for testing)")
	fs.StringVar(&c.TLSCert, "tls-cert", "", "TLS certificate file (PEM)")
	fs.StringVar(&c.TLSKey, "tls-key", "", "TLS key file (PEM)")
	fs.Var((*multiFlag)(&c.Origins), "allow-origin", "a browser Origin allowed to call (repeatable)")
	fs.Var((*multiFlag)(&c.AuthServers), "auth-server", "an authorization server the protected-resource metadata names (repeatable)")
	fs.StringVar(&c.PublicURL, "public-url", "", "the URL clients use for /mcp (default from --http)")
	fs.IntVar(&c.MaxSessions, "max-sessions", remote.DefaultMaxSessions, "most MCP sessions open at once")
	fs.DurationVar(&c.IdleTimeout, "idle-timeout", remote.DefaultIdleTimeout, "a session without requests this long is closed")
	fs.Int64Var(&c.MaxBodyBytes, "max-body", remote.DefaultMaxBodyBytes, "largest request body in bytes")
	dataDir := fs.String("data-dir", "", "data directory (default: WINDOWS_DEV_AGENT_DATA_DIR or the generic host's)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "wda serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if c.Addr == "" {
		fmt.Fprint(stderr, "wda serve: --http: required (the stdio server is `wda mcp`)\n")
		return exitUsage
	}
	if err := c.Check(); err != nil {
		fmt.Fprintf(stderr, "wda serve: %v\n", err)
		return exitUsage
	}
	if len(roots) == 0 {
		fmt.Fprint(stderr, "wda serve: --root: required: the folders remote projects may be in\n")
		return exitUsage
	}
	var tokens remote.Tokens
	if !c.NoAuth {
		var err error
		if tokens, err = remote.LoadTokenFile(c.TokenFile); err != nil {
			fmt.Fprintf(stderr, "wda serve: %v\n", err)
			return exitUsage
		}
	}
	tc, err := c.LoadTLS()
	if err != nil {
		fmt.Fprintf(stderr, "wda serve: %v\n", err)
		return exitUsage
	}
	rh := host.NewRemote(roots, getenv)
	if len(rh.Roots()) != len(roots) {
		fmt.Fprintf(stderr, "wda serve: --root: every root must be an existing folder; usable: %v\n", rh.Roots())
		return exitUsage
	}
	s, err := newSession("generic", config.Flags{DataDir: *dataDir, ProjectDir: rh.Roots()[0]}, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "wda serve: %v\n", err)
		return exitUsage
	}
	startup(s, stderr)
	stopExport := startAuditExport("wda serve", s.cfg.DataDir, getenv, sessionExportPolicy(s), stderr)
	// After the audit flush below: the export's last pass ships the last records.
	defer stopExport()
	s.opts.Host = rh
	s.opts.Roots = rh.Roots()
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := runtime.NewServer(s.reg, s.opts)
	srv.AddReceivingMiddleware(remote.Inflight(remote.DefaultMaxInFlight, remote.DefaultMaxQueued))
	h := remote.NewHandler(srv, c, remote.Options{Tokens: tokens, Logger: logger})
	ln, err := listen(c.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "wda serve: %v\n", err)
		return 1
	}
	auth := "bearer tokens: " + strings.Join(tokenNames(tokens), ", ")
	if c.NoAuth {
		auth = "NO AUTHORIZATION (loopback testing only)"
	}
	fmt.Fprintf(stderr, "wda serve: serving %s (listening on %s; %s; roots: %s)\n", c.PublicURL, ln.Addr(), auth, strings.Join(s.opts.Roots, ", "))
	err = remote.Serve(ctx, ln, h, c, tc, shutdownGrace)
	if ferr := audit.Flush(auditFlush); ferr != nil {
		fmt.Fprintf(stderr, "wda serve: audit records not written before exit: %v\n", ferr)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "wda serve: %v\n", err)
		return 1
	}
	return exitOK
}

func tokenNames(ts remote.Tokens) []string {
	var n []string
	for _, t := range ts {
		n = append(n, t.Name)
	}
	return n
}

// serveMain is `wda serve` with the process's signals and listener.
func serveMain(args []string, stderr io.Writer, getenv func(string) string) int {
	if ok, code := serveAsService(args, stderr, getenv); ok {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runServe(ctx, args, stderr, getenv, listenTCP)
}

func listenTCP(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }
