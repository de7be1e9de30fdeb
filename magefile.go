//go:build mage

// Build targets for Windows Dev Agent. Run with `go tool mage <target>` or
// `go run github.com/magefile/mage@v1.17.2 <target>`; `mage -l` lists them.
package main

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

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
	return sh.RunV("go", "run", actionlint, filepath.Join(".github", "workflows", "ci.yml"))
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

// Dist regenerates dist/, builds wda into each host payload's bin/ (windows/amd64 as
// bin/wda.exe plus this machine's OS as bin/wda), and zips one payload per host and
// Windows architecture with a .sha256 file beside it.
func Dist() error {
	mg.Deps(Generate)
	hosts := []string{"claude", "codex"}
	build := func(goos, goarch, out string) error {
		env := map[string]string{"GOOS": goos, "GOARCH": goarch, "CGO_ENABLED": "0"}
		return sh.RunWithV(env, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./cmd/wda")
	}
	for _, h := range hosts {
		bin := filepath.Join("dist", h, "bin")
		if err := os.RemoveAll(bin); err != nil {
			return err
		}
		if err := build("windows", "amd64", filepath.Join(bin, "wda.exe")); err != nil {
			return err
		}
		if runtime.GOOS != "windows" {
			if err := build(runtime.GOOS, runtime.GOARCH, filepath.Join(bin, "wda")); err != nil {
				return err
			}
		}
	}
	// One zip per host and Windows architecture: the payload with only that binary.
	for _, arch := range []string{"amd64", "arm64"} {
		tmp, err := os.MkdirTemp("", "wda-dist-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		exe := filepath.Join(tmp, "wda.exe")
		if err := build("windows", arch, exe); err != nil {
			return err
		}
		for _, h := range hosts {
			name := filepath.Join("dist", fmt.Sprintf("windows-dev-agent-%s-windows-%s.zip", h, arch))
			if err := zipPayload(filepath.Join("dist", h), exe, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// zipPayload writes root's generated files plus exe as bin/wda.exe into name, then
// name.sha256 in the sha256sum format.
func zipPayload(root, exe, name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	add := func(src, dst string) error {
		w, err := zw.Create(filepath.ToSlash(dst))
		if err != nil {
			return err
		}
		r, err := os.Open(src)
		if err != nil {
			return err
		}
		defer r.Close()
		_, err = io.Copy(w, r)
		return err
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "bin" {
				return fs.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		return add(p, rel)
	})
	if err == nil {
		err = add(exe, filepath.Join("bin", "wda.exe"))
	}
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	return os.WriteFile(name+".sha256", []byte(hex.EncodeToString(sum[:])+"  "+filepath.Base(name)+"\n"), 0o644)
}
