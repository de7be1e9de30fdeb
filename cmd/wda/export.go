package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/auditexport"
)

// startAuditExport starts shipping the shared audit log of dataDir to the collector the
// environment or the policy names (docs/telemetry.md); with neither, it does nothing.
// pol is the managed policy's audit.otlp section (nil: no policy), which wins over the
// environment. The returned stop ends the export after a last pass bounded by
// auditexport.DefaultFlushTimeout. A configuration error is reported and the server runs
// without the export: the audit log itself is unaffected.
func startAuditExport(dataDir string, getenv func(string) string, pol *auditexport.Policy, stderr io.Writer) (stop func()) {
	cfg, err := auditexport.Resolve(getenv, pol)
	if err != nil {
		fmt.Fprintf(stderr, "wda mcp: audit export off: %v\n", err)
		return func() {}
	}
	if !cfg.Enabled() || dataDir == "" {
		return func() {}
	}
	exp, err := auditexport.NewExporter(context.Background(), cfg)
	if err != nil {
		fmt.Fprintf(stderr, "wda mcp: audit export off: %v\n", err)
		return func() {}
	}
	var mu sync.Mutex // stderr is shared with the server's own warnings
	s := auditexport.New(auditexport.Options{DataDir: dataDir, Exporter: exp, Resource: auditexport.Resource(wda.Version),
		Warn: func(m string) { mu.Lock(); fmt.Fprintf(stderr, "wda mcp: %s\n", m); mu.Unlock() }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}
