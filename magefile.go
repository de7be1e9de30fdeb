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

// Build builds bin/wda for this machine.
func Build() error {
	return sh.RunV("go", "build", "-o", filepath.Join("bin", "wda"+exeSuffix()), "./cmd/wda")
}

// Cross builds wda for every supported target and vets each.
func Cross() error {
	for _, t := range [][2]string{{"windows", "amd64"}, {"windows", "arm64"}, {"linux", "amd64"}, {"darwin", "arm64"}} {
		env := map[string]string{"GOOS": t[0], "GOARCH": t[1]}
		out := filepath.Join("bin", fmt.Sprintf("wda-%s-%s", t[0], t[1]))
		if t[0] == "windows" {
			out += ".exe"
		}
		if err := sh.RunWithV(env, "go", "build", "-o", out, "./cmd/wda"); err != nil {
			return err
		}
		if err := sh.RunWithV(env, "go", "vet", "./..."); err != nil {
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
func Hostcheck() error {
	args := append([]string{"run", "./gen/cmd/hostcheck"}, strings.Fields(os.Getenv("HOSTCHECK_ARGS"))...)
	return sh.RunV("go", args...)
}
