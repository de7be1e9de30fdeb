// Command hostcheck proves the Agent Plugins, MCPB, MCP Registry and Gemini CLI
// payloads under a dist directory with the real, pinned host clients, offline
// (docs/hostcheck.md):
//
//	go run ./gen/cmd/hostcheck [-dist dist] [-bin DIR] [-cache DIR]
//
// -bin names a folder holding wda and wda-hook built for this machine; without it
// both are built from the module (CGO_ENABLED=0, -trimpath) into a temporary folder.
// The clients are installed into -cache (default WDA_HOST_CHECK_CACHE, else
// ~/.cache/wda-host-check). It prints one PASS or FAIL line per check and a summary,
// and exits 1 when any check failed. Nothing under dist/ is written.
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
	dist := flag.String("dist", "dist", "dist directory to check")
	bin := flag.String("bin", "", "folder with wda and wda-hook for this machine (default: build them)")
	cache := flag.String("cache", "", "client cache (default: WDA_HOST_CHECK_CACHE or ~/.cache/wda-host-check)")
	flag.Parse()
	if flag.NArg() != 0 {
		flag.Usage()
		os.Exit(2)
	}
	os.Exit(run(*dist, *bin, *cache))
}

func run(dist, bin, cache string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if cache == "" {
		var err error
		if cache, err = hostcheck.DefaultCache(nil); err != nil {
			fmt.Fprintln(os.Stderr, "hostcheck:", err)
			return 2
		}
	}
	env, err := hostcheck.NewEnv(ctx, hostcheck.Config{Dist: dist, Bin: bin, Cache: cache, Out: os.Stdout})
	if env != nil {
		defer env.Close()
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
