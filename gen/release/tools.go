package release

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// Git runs git in one repository through the one process runner.
type Git struct {
	Dir    string // absolute working directory
	Runner proc.Runner
	Binary string   // absolute path of git
	Env    []string // the child's environment; nil is this process's, cleaned (gitEnv)
}

// NewGit resolves git from PATH for the repository at dir.
func NewGit(dir string) (*Git, error) {
	bin, ok := proc.NewResolver(nil).Resolve("git")
	if !ok {
		return nil, errors.New("git is not installed (not found on PATH)")
	}
	abs, err := filepath.Abs(dir) // the runner takes absolute working directories only
	if err != nil {
		return nil, err
	}
	return &Git{Dir: abs, Runner: proc.Exec{}, Binary: bin}, nil
}

// In is g for another directory.
func (g *Git) In(dir string) *Git {
	c := *g
	c.Dir = dir
	return &c
}

// hermetic is g with no system or user configuration: what the distribution repository
// records must not depend on the machine's git settings (autocrlf, hooks, signing,
// default branch, hash algorithm).
func (g *Git) hermetic(extra ...string) *Git {
	c := *g
	c.Env = append(gitEnv(), append([]string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_TERMINAL_PROMPT=0"}, extra...)...)
	return &c
}

// gitEnv is this process's environment without the variables that would point git at
// another repository, index or object store than the one named by the working
// directory (set, for example, when this runs from a git hook).
func gitEnv() []string {
	drop := []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES"}
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.ContainsFunc(drop, func(d string) bool { return strings.EqualFold(d, k) })
	})
}

// Run runs git with args and returns its stdout.
func (g *Git) Run(ctx context.Context, args ...string) (string, error) {
	env := g.Env
	if env == nil {
		env = gitEnv()
	}
	r := g.Runner.Run(ctx, proc.Request{Argv: append([]string{g.Binary}, args...), Dir: g.Dir, Env: env,
		Timeout: 5 * time.Minute, StdoutLimit: 8 << 20, StderrLimit: 64 << 10})
	name := "git " + firstWords(args, 3)
	switch {
	case !r.ExecutionStarted:
		return "", fmt.Errorf("%s: not started: %s", name, r.Error)
	case r.TimedOut:
		return "", fmt.Errorf("%s: timed out", name)
	case !r.Succeeded:
		return r.Stdout, fmt.Errorf("%s: %s%s", name, strings.TrimSpace(r.Stderr), r.Error)
	case !r.StdoutWhole():
		return "", fmt.Errorf("%s: output incomplete or truncated", name)
	}
	return r.Stdout, nil
}

// firstWords is the start of a command line, for error messages.
func firstWords(args []string, n int) string {
	if len(args) > n {
		return strings.Join(args[:n], " ") + " …"
	}
	return strings.Join(args, " ")
}

// goTool runs the go command through the process runner.
type goTool struct {
	Binary string
	Runner proc.Runner
}

func newGoTool(r proc.Runner) (*goTool, error) {
	bin, ok := proc.NewResolver(nil).Resolve("go")
	if !ok {
		return nil, errors.New("go is not installed (not found on PATH)")
	}
	return &goTool{Binary: bin, Runner: r}, nil
}

// buildVars are the variables that change what `go build` produces, beyond the flags:
// they are removed from the inherited environment and set explicitly (build.go).
var buildVars = []string{"GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOAMD64", "GOARM64", "GOARM",
	"GO386", "GOEXPERIMENT", "GOTOOLCHAIN", "GOWORK", "GO111MODULE", "GOFIPS140"}

// env is this process's environment with buildVars replaced by set.
func (*goTool) env(set ...string) []string {
	env := slices.DeleteFunc(gitEnv(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return slices.ContainsFunc(buildVars, func(v string) bool { return strings.EqualFold(v, k) })
	})
	return append(env, set...)
}

func (t *goTool) run(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	r := t.Runner.Run(ctx, proc.Request{Argv: append([]string{t.Binary}, args...), Dir: dir, Env: env,
		Timeout: 20 * time.Minute, StdoutLimit: 1 << 20, StderrLimit: 64 << 10})
	name := "go " + firstWords(args, 2)
	switch {
	case !r.ExecutionStarted:
		return "", fmt.Errorf("%s: not started: %s", name, r.Error)
	case r.TimedOut:
		return "", fmt.Errorf("%s: timed out", name)
	case !r.Succeeded:
		return "", fmt.Errorf("%s: %s%s", name, strings.TrimSpace(r.Stderr), r.Error)
	case !r.StdoutWhole():
		return "", fmt.Errorf("%s: output incomplete or truncated", name)
	}
	return r.Stdout, nil
}
