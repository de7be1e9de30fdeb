//go:build mage

// Build targets for Windows Dev Agent. Run with `go tool mage <target>` or
// `go run github.com/magefile/mage@v1.17.2 <target>`; `mage -l` lists them.
package main

import (
	"fmt"
	"os"
	"path/filepath"

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
func Build() error { return sh.RunV("go", "build", "-o", filepath.Join("bin", "wda"+exeSuffix()), "./cmd/wda") }

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

// Lint runs gofmt and go vet for Linux and Windows.
func Lint() error {
	out, err := sh.Output("gofmt", "-l", ".")
	if err != nil {
		return err
	}
	if out != "" {
		return fmt.Errorf("gofmt would change:\n%s", out)
	}
	if err := sh.RunV("go", "vet", "./..."); err != nil {
		return err
	}
	return sh.RunWithV(map[string]string{"GOOS": "windows"}, "go", "vet", "./...")
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
