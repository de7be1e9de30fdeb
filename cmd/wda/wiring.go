package main

import (
	"fmt"
	"io"
	"time"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/claude"
	"github.com/windows-dev-agent/wda/host/codex"
	"github.com/windows-dev-agent/wda/host/copilot"
	"github.com/windows-dev-agent/wda/host/gemini"
	"github.com/windows-dev-agent/wda/host/hook"
	"github.com/windows-dev-agent/wda/host/mcpb"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/config"
	"github.com/windows-dev-agent/wda/internal/hookscope"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/all"
	"github.com/windows-dev-agent/wda/tools/sandboxrun"
)

// session is what every serving command decides once at start-up (internal/config):
// the registry of the ten tools with the catalog in force, and the server options.
type session struct {
	cfg  config.Config
	reg  *tools.Registry
	opts runtime.Options
}

// newSession resolves the host, data and project directories and the catalog. A
// user catalog that cannot be read or parsed is a start-up error.
func newSession(hostName string, f config.Flags, getenv func(string) string) (*session, error) {
	cfg, err := config.Resolve(hostName, f, getenv)
	if err != nil {
		return nil, err
	}
	cat, err := loadCatalog(cfg.CatalogPath)
	if err != nil {
		return nil, err
	}
	reg := all.New(all.Config{Catalog: func() (*catalog.Catalog, error) { return cat, nil }})
	opts := runtime.Options{Host: adapter(cfg), DataDir: cfg.DataDir, ProjectDir: cfg.ProjectDir, Getenv: getenv,
		InCatalog: func(id string) bool { _, ok := cat.Get(id); return ok }}
	return &session{cfg: cfg, reg: reg, opts: opts}, nil
}

// loadCatalog parses the catalog in force once: the shipped one, extended by the user
// catalog named by WINDOWS_DEV_AGENT_CATALOG (catalog.Extend: new ids are added, a
// shipped id is redefined but never below its shipped class; docs/catalog.md, "A user
// catalog"). The user catalog is read with catalog.ReadFile, which stops after
// catalog.MaxBytes+1 bytes and refuses anything but a regular file, so a huge file, a
// device or a pipe named there costs at most 1 MiB (docs/catalog.md, "Limits").
func loadCatalog(path string) (*catalog.Catalog, error) {
	shipped, err := catalog.Shipped()
	if err != nil || path == "" {
		return shipped, err
	}
	src, err := catalog.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", config.CatalogVar, err)
	}
	user, err := catalog.Load(src)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", config.CatalogVar, path, err)
	}
	return catalog.Extend(shipped, user), nil
}

// adapter is the host adapter of cfg.
func adapter(cfg config.Config) host.Host {
	switch cfg.Host {
	case "claude":
		return claude.New(cfg.ProjectDir, cfg.Getenv)
	case "codex":
		return codex.New(cfg.DataDir)
	case "copilot":
		return copilot.New()
	case "gemini":
		return gemini.New(cfg.ProjectDir, cfg.Getenv)
	case "mcpb":
		return mcpb.New()
	}
	return host.NewGeneric(cfg.ProjectDir, cfg.Getenv)
}

// startup runs the server's start-up chores before serving: Windows Sandbox bundles
// left by a crashed server are swept. A failure is only reported; serving goes on.
func startup(s *session, stderr io.Writer) {
	if err := sandboxrun.SweepStale(s.cfg.DataDir); err != nil {
		fmt.Fprintf(stderr, "wda mcp: sweeping stale sandbox bundles: %v\n", err)
	}
	if s.cfg.Host == "codex" {
		if err := hookscope.Sweep(s.cfg.DataDir, time.Now()); err != nil {
			fmt.Fprintf(stderr, "wda mcp: sweeping stale hook hand-overs: %v\n", err)
		}
	}
}

func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return hook.Main(args, stdin, stdout, stderr, getenv)
}
