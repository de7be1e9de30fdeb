// Command conformance runs the official MCP conformance suite
// (@modelcontextprotocol/conformance, pinned below) against `wda serve --http` on
// loopback (docs/remote.md, "Conformance"): it installs the suite into a temporary
// folder, builds wda, serves it with --no-auth on a free loopback port and runs the
// suite's server scenarios with baseline.yml, the scenarios that need the suite's own
// tools. It exits non-zero when any other scenario fails. `go tool mage conformance`
// runs it; CI does not (it needs the npm registry and a minute).
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// Suite is the pinned suite version.
const Suite = "@modelcontextprotocol/conformance@0.1.16"

//go:embed baseline.yml
var baseline []byte

func main() {
	node := flag.String("node", "", "Node.js 22 or later (default: the host check's cached one, else node on PATH)")
	flag.Parse()
	if err := run(*node); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}

func run(node string) error {
	ctx := context.Background()
	r := proc.Exec{}
	res := proc.NewResolver(os.Getenv)
	if node == "" {
		home, _ := os.UserHomeDir()
		node = filepath.Join(home, ".cache", "wda-host-check", "node_modules", ".bin", "node")
		if _, err := os.Stat(node); err != nil {
			var ok bool
			if node, ok = res.Resolve("node"); !ok {
				return errors.New("node is not on PATH: pass -node (Node.js 22 or later)")
			}
		}
	}
	npm, ok := res.Resolve("npm")
	if !ok {
		return errors.New("npm is not on PATH")
	}
	goCmd, ok := res.Resolve("go")
	if !ok {
		return errors.New("go is not on PATH")
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "wda-conformance-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(dir) }() // a temporary folder: nothing to report if it stays
	step := func(what string, argv ...string) error {
		fmt.Println("conformance:", what)
		rc := r.Run(ctx, proc.Request{Argv: argv, Dir: wd, Timeout: 10 * time.Minute, StdoutLimit: 4 << 20, StderrLimit: 4 << 20, Env: os.Environ()})
		fmt.Print(rc.Stdout, rc.Stderr)
		if !rc.Succeeded {
			return fmt.Errorf("%s failed: %s %s", what, rc.Error, rc.LifecycleError)
		}
		return nil
	}
	if err := step("installing "+Suite, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", Suite); err != nil {
		return err
	}
	wda := filepath.Join(dir, "wda")
	if err := step("building wda", goCmd, "build", "-o", wda, "./cmd/wda"); err != nil {
		return err
	}
	root := filepath.Join(dir, "root")
	base := filepath.Join(dir, "baseline.yml")
	if err := errors.Join(os.Mkdir(root, 0o755), os.WriteFile(base, baseline, 0o644)); err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	sctx, stop := context.WithCancel(ctx)
	served := make(chan proc.Receipt, 1)
	go func() {
		served <- r.Run(sctx, proc.Request{Argv: []string{wda, "serve", "--http", addr, "--no-auth", "--root", root},
			Dir: dir, Timeout: 30 * time.Minute, StdoutLimit: 1 << 20, StderrLimit: 1 << 20,
			Env: append(os.Environ(), "WINDOWS_DEV_AGENT_DATA_DIR="+filepath.Join(dir, "data"))})
	}()
	defer func() { stop(); <-served }()
	if err := waitListening(addr, served); err != nil {
		return err
	}
	suite := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	return step("running the server scenarios against http://"+addr+"/mcp", node, suite, "server",
		"--url", "http://"+addr+"/mcp", "--expected-failures", base, "-o", filepath.Join(dir, "results"))
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	return port, ln.Close()
}

// waitListening waits up to 30 s for addr to accept connections, or for the server
// to exit (then its stderr says why).
func waitListening(addr string, served <-chan proc.Receipt) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case rc := <-served:
			return fmt.Errorf("wda serve exited: %s", rc.Stderr)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			return c.Close()
		}
		time.Sleep(100 * time.Millisecond) // a tool's readiness poll, not a test
	}
	return fmt.Errorf("wda serve did not listen on %s within 30 s", addr)
}
