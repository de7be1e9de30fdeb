package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/auditexport"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/internal/policy/inforce"
)

// startAuditExport starts shipping the shared audit log of dataDir to the collector the
// environment or the policy names (docs/telemetry.md); with neither, it does nothing.
// pol is the managed policy's audit.otlp section (nil: no policy), which wins over the
// environment. The returned stop ends the export after a last pass bounded by
// auditexport.DefaultFlushTimeout. A configuration error is reported and the server runs
// without the export: the audit log itself is unaffected.
func startAuditExport(cmd, dataDir string, getenv func(string) string, pol *auditexport.Policy, stderr io.Writer) (stop func()) {
	if pol == brokenPolicy {
		fmt.Fprintf(stderr, "%s: audit export off: the managed policy cannot be used, and the environment cannot stand in for it\n", cmd)
		return func() {}
	}
	cfg, err := auditexport.Resolve(getenv, pol)
	if err != nil {
		fmt.Fprintf(stderr, "%s: audit export off: %v\n", cmd, err)
		return func() {}
	}
	if !cfg.Enabled() || dataDir == "" {
		return func() {}
	}
	exp, err := auditexport.NewExporter(context.Background(), cfg)
	if err != nil {
		fmt.Fprintf(stderr, "%s: audit export off: %v\n", cmd, err)
		return func() {}
	}
	var mu sync.Mutex // stderr is shared with the server's own warnings
	s := auditexport.New(auditexport.Options{DataDir: dataDir, Exporter: exp, Resource: auditexport.Resource(wda.Version),
		Warn: func(m string) { mu.Lock(); fmt.Fprintf(stderr, "%s: %s\n", cmd, m); mu.Unlock() }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}

// brokenPolicy stands for a policy source that exists but cannot be used: it may have
// named an export the environment must not replace, so there is none (docs/telemetry.md,
// "Configuration").
var brokenPolicy = &auditexport.Policy{}

// sessionExportPolicy is the audit.otlp section of the policy s serves under.
func sessionExportPolicy(s *session) *auditexport.Policy {
	pol := s.opts.Policy
	if pol == nil {
		pol = inforce.Current()
	}
	return exportPolicy(pol)
}

// exportPolicy is the audit.otlp section of the policy in force: nil without one,
// brokenPolicy for a policy that does not parse.
func exportPolicy(st *policy.State) *auditexport.Policy {
	switch {
	case st == nil || !st.InForce():
		return nil
	case st.Err != nil || st.Policy == nil:
		return brokenPolicy
	case st.Policy.Audit.OTLP == nil:
		return nil
	}
	o := st.Policy.Audit.OTLP
	return &auditexport.Policy{Endpoint: o.Endpoint, Protocol: o.Protocol, Headers: o.Headers, Timeout: o.Timeout}
}
