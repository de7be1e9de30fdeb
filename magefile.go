//go:build mage

// Build targets for Windows Dev Agent. Run with `go tool mage <target>` or
// `go run github.com/magefile/mage@v1.17.2 <target>`; `mage -l` lists them.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/magefile/mage/mg"
	"github.com/magefile/mage/sh"
)

// Default runs the tests.
var Default = Test

// Generate renders dist/ (go generate ./...).
func Generate() error { return sh.RunV("go", "generate", "./...") }

// Test runs the README's test command.
func Test() error { return sh.RunV("go", "test", "-race", "./...") }

// releaseFlags are the release's build flags (docs/release.md): what every build of a
// shipped binary uses, so what is tested and measured is what users get.
var releaseFlags = []string{"-trimpath", "-ldflags=-s -w -buildid="}

// releaseEnv is the release's environment for GOOS/GOARCH ("" keeps this machine's).
func releaseEnv(goos, goarch string) map[string]string {
	env := map[string]string{"CGO_ENABLED": "0"}
	if goos != "" {
		env["GOOS"], env["GOARCH"] = goos, goarch
	}
	return env
}

// Build builds bin/wda and bin/wda-hook for this machine with the release flags.
func Build() error {
	for _, cmd := range []string{"wda", "wda-hook"} {
		args := append(append([]string{"build"}, releaseFlags...), "-o", filepath.Join("bin", cmd+exeSuffix()), "./cmd/"+cmd)
		if err := sh.RunWithV(releaseEnv("", ""), "go", args...); err != nil {
			return err
		}
	}
	return nil
}

// Cross builds wda and wda-hook for every release target with the release flags and
// vets each operating system's code.
func Cross() error {
	targets := [][2]string{{"windows", "amd64"}, {"windows", "arm64"}, {"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}}
	for _, t := range targets {
		for _, cmd := range []string{"wda", "wda-hook"} {
			out := filepath.Join("bin", fmt.Sprintf("%s-%s-%s", cmd, t[0], t[1]))
			if t[0] == "windows" {
				out += ".exe"
			}
			args := append(append([]string{"build"}, releaseFlags...), "-o", out, "./cmd/"+cmd)
			if err := sh.RunWithV(releaseEnv(t[0], t[1]), "go", args...); err != nil {
				return err
			}
		}
		if err := sh.RunWithV(map[string]string{"GOOS": t[0], "GOARCH": t[1]}, "go", "vet", "./..."); err != nil {
			return err
		}
	}
	return nil
}

// Pinned linters. They are built from source by the go command (nothing needs to be
// installed first) and are not in go.mod: they are tools for this repository, not
// dependencies of wda.
const (
	golangciLint = "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0"
	actionlint   = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"
)

// Lint runs gofmt, go vet and golangci-lint (.golangci.yml) for Linux and Windows, and
// actionlint on the GitHub workflows.
func Lint() error {
	out, err := sh.Output("gofmt", "-l", ".")
	if err != nil {
		return err
	}
	if out != "" {
		return fmt.Errorf("gofmt would change:\n%s", out)
	}
	windows := map[string]string{"GOOS": "windows", "GOARCH": "amd64"}
	if err := sh.RunV("go", "vet", "./..."); err != nil {
		return err
	}
	if err := sh.RunWithV(windows, "go", "vet", "./..."); err != nil {
		return err
	}
	if err := sh.RunV("go", "run", golangciLint, "run", "./..."); err != nil {
		return err
	}
	// golangci-lint reads GOOS from its environment, but `GOOS=windows go run` would
	// build a Windows linter: install it for this machine first, then run it.
	tools, err := filepath.Abs(filepath.Join("bin", "tools"))
	if err != nil {
		return err
	}
	if err := sh.RunWithV(map[string]string{"GOBIN": tools}, "go", "install", golangciLint); err != nil {
		return err
	}
	if err := sh.RunWithV(windows, filepath.Join(tools, "golangci-lint"+hostExeSuffix()), "run", "./..."); err != nil {
		return err
	}
	return sh.RunV("go", "run", actionlint, filepath.Join(".github", "workflows", "ci.yml"), filepath.Join(".github", "workflows", "release.yml"))
}

// hostExeSuffix is the executable suffix of the machine running mage (exeSuffix is
// the target's).
func hostExeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// Fuzz runs every fuzz target for a bounded time (FUZZTIME, default 30s).
func Fuzz() error {
	t := os.Getenv("FUZZTIME")
	if t == "" {
		t = "30s"
	}
	return sh.RunV("bash", ".ci/fuzz.sh", t)
}

// Wine runs the windows/amd64 tests under Wine.
func Wine() error {
	mg.Deps(Build)
	return sh.RunV("bash", ".ci/wine-test.sh", "-count=1", "./...")
}

func exeSuffix() string {
	if os.Getenv("GOOS") == "windows" {
		return ".exe"
	}
	return ""
}

// Release assembles dist/release from HEAD: a git repository whose one commit is the
// distribution (the Claude Code, Codex, Agent Plugins and Gemini CLI plugin folders
// with wda and wda-hook for every target, one MCP Bundle per Windows architecture, the
// MCP Registry's server.json, three marketplaces, RELEASE.json). It refuses a working
// tree with changes and then changes nothing (docs/release.md).
func Release() error { return sh.RunV("go", "run", "./gen/cmd/release", "build") }

// Hostcheck installs the pinned host clients (Claude Code, Codex, the MCP Inspector,
// the Copilot CLI, mcpb, Gemini CLI, mcp-publisher, and under Wine when it is installed
// the Windows builds of Claude Code and Codex) into a cache folder, builds dist/release
// unless one exists for HEAD, installs each of its payloads as a user would, and runs
// sessions against stand-ins for the model and the registry (docs/hostcheck.md). Set
// HOSTCHECK_ARGS for more flags (e.g. "-release DIR", "-skip-wine").
// Conformance runs the official MCP conformance suite (pinned in gen/cmd/conformance)
// against `wda serve --http` on loopback (docs/remote.md, "Conformance"). Needs npm
// and Node.js 22 or later; not part of CI.
func Conformance() error { return sh.RunV("go", "run", "./gen/cmd/conformance") }

func Hostcheck() error {
	args := append([]string{"run", "./gen/cmd/hostcheck"}, strings.Fields(os.Getenv("HOSTCHECK_ARGS"))...)
	return sh.RunV("go", args...)
}
