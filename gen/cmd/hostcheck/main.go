// Command hostcheck proves a distribution with the real, pinned host clients, offline
// (docs/hostcheck.md): Claude Code, Codex and the MCP Inspector, the Copilot CLI with
// the Agent Plugin, mcpb with the MCP Bundles, the MCP Registry's publisher with the
// registry entry, Gemini CLI with the extension, and under Wine the Windows builds of
// Claude Code and Codex:
//
//	go run ./gen/cmd/hostcheck [-release DIR] [-cache DIR] [-win-cache DIR] [-skip-wine]
//
// Without -release it checks dist/release, building it for HEAD first when it is
// missing or was built from another commit (which refuses a working tree with
// changes). The clients are installed into -cache (default WDA_HOST_CHECK_CACHE, else
// ~/.cache/wda-host-check); the Windows builds and the Wine prefix live in -win-cache
// (default WDA_WIN_HOSTS_CACHE, else ~/.cache/wda-win-hosts). It prints one PASS or
// FAIL line per check and a summary, and exits 1 when any check failed, 2 when the run
// could not start. `go tool mage hostcheck` runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/windows-dev-agent/wda/gen/hostcheck"
)

func main() {
	rel := flag.String("release", "", "distribution to check (default: dist/release, built for HEAD when needed)")
	cache := flag.String("cache", "", "client cache (default: WDA_HOST_CHECK_CACHE or ~/.cache/wda-host-check)")
	winCache := flag.String("win-cache", "", "Windows clients and Wine prefix (default: WDA_WIN_HOSTS_CACHE or ~/.cache/wda-win-hosts)")
	skipWine := flag.Bool("skip-wine", false, "leave out everything that runs under Wine")
	only := flag.String("only", "", "run only the client groups whose name contains this (e.g. gemini)")
	flag.Parse()
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, hostcheck.Config{Release: *rel, Cache: *cache, WinCache: *winCache, SkipWine: *skipWine, Only: *only, Out: os.Stdout})
	stop()
	os.Exit(code)
}

func run(ctx context.Context, cfg hostcheck.Config) int {
	env, err := hostcheck.NewEnv(ctx, cfg)
	if env != nil {
		defer func() {
			if err := env.Close(); err != nil {
				fmt.Fprintln(os.Stderr, "hostcheck: removing the work folder:", err)
			}
		}()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostcheck:", err)
		return 2
	}
	for _, r := range env.RunGroups(ctx, env.Groups()) {
		if r.Err != nil {
			return 1
		}
	}
	return 0
}
