package hostcheck

import (
	"archive/tar"
	"compress/gzip"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// regvalidateSource is a loopback-free stand-in for the registry's POST /v0/validate:
// it runs the registry's own validators.ValidateServerJSON on one file and prints the
// result. It imports the registry's internal packages, which Go allows only to a
// package whose path lies under the registry module's, so it is built as its own
// module named inside that path, pinned to RegistryVersion.
//
//go:embed regvalidate.go.txt
var regvalidateSource string

// installGroup puts every pinned client into the cache, skipping those already there:
// the npm packages at their exact versions, mcp-publisher by `go install`, and the
// registry's validator. Each is a check of its own; the groups that need a missing
// one fail on their own.
func (e *Env) installGroup() Group {
	var names []string
	for _, c := range NPMClients {
		names = append(names, c.Spec())
	}
	return Group{Name: "install", Checks: []Check{
		{Name: "npm " + strings.Join(names, " "), Independent: true, Run: func(ctx context.Context) error { return e.installNPM(ctx, NPMClients) }},
		{Name: "go install " + PublisherPkg + "@" + RegistryVersion, Independent: true, Run: e.installPublisher},
		{Name: "the registry's validator " + RegistryVersion, Independent: true, Run: e.buildRegValidate},
	}}
}

// npmEnv is npm's environment: the caller's own, with its configuration (registry,
// proxy, certificates; installing is the one step that needs the network), node first
// on PATH, and no update notice.
func (e *Env) npmEnv() []string {
	return setEnv(os.Environ(), "npm_config_update_notifier=false",
		"PATH="+filepath.Dir(e.node)+string(os.PathListSeparator)+e.getenv("PATH"))
}

// installNPM installs the clients missing from the cache at their exact versions.
func (e *Env) installNPM(ctx context.Context, clients []Client) error {
	var missing []string
	for _, c := range clients {
		if _, err := e.binScript(c); err != nil {
			missing = append(missing, c.Spec())
		}
	}
	if len(missing) > 0 {
		npm, err := e.npmCLI()
		if err != nil {
			return err
		}
		args := append([]string{e.node, npm, "install", "--prefix", e.cfg.Cache, "--save-exact", "--no-audit", "--no-fund"}, missing...)
		r := e.run(ctx, request{argv: args, dir: e.cfg.Cache, env: e.npmEnv(), timeout: 20 * time.Minute})
		if err := r.err(); err != nil {
			return fmt.Errorf("npm install %s: %w", strings.Join(missing, " "), err)
		}
	}
	for _, c := range clients {
		if _, err := e.binScript(c); err != nil {
			return err
		}
	}
	return nil
}

// npmCLI is npm's own script (run under node: npm's launcher is a shell script or a
// .cmd file, neither of which the process runner starts).
func (e *Env) npmCLI() (string, error) {
	dir := filepath.Dir(e.node)
	candidates := []string{filepath.Join(dir, "..", "lib", "node_modules", "npm", "bin", "npm-cli.js")}
	if goruntime.GOOS == "windows" {
		candidates = []string{filepath.Join(dir, "node_modules", "npm", "bin", "npm-cli.js")}
	}
	for _, name := range []string{"npm", "npm-cli.js"} {
		if p, err := lookPathScript(e.getenv("PATH"), name); err == nil {
			candidates = append(candidates, p)
		}
	}
	for _, c := range candidates {
		if real, err := filepath.EvalSymlinks(c); err == nil && strings.HasSuffix(real, "npm-cli.js") {
			return real, nil
		}
	}
	return "", errors.New("npm's npm-cli.js was not found beside node or on PATH")
}

// lookPathScript finds name in the PATH directories without starting anything.
func lookPathScript(path, name string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

// packDir is where npmPack unpacks a package: the spec with '/' and '@' as '_'.
func packDir(root string, c Client) string {
	return filepath.Join(root, strings.NewReplacer("/", "_", "@", "_").Replace(c.Spec()))
}

// npmPack fetches a package that npm cannot install on this platform (a Windows build)
// with `npm pack` and unpacks it under root once; it returns the path of the file named
// c.Bin inside it.
func (e *Env) npmPack(ctx context.Context, root string, c Client) (string, error) {
	dir := packDir(root, c)
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		npm, err := e.npmCLI()
		if err != nil {
			return "", err
		}
		r := e.run(ctx, request{argv: []string{e.node, npm, "pack", "--silent", c.Spec()}, dir: dir,
			env: e.npmEnv(), timeout: 30 * time.Minute})
		if err := r.err(); err != nil {
			return "", fmt.Errorf("npm pack %s: %w", c.Spec(), err)
		}
		tgz := filepath.Join(dir, filepath.Base(strings.TrimSpace(r.Stdout)))
		if err := untgz(tgz, dir); err != nil {
			return "", fmt.Errorf("unpacking %s: %w", tgz, err)
		}
		if err := os.Remove(tgz); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, "done"), nil, 0o644); err != nil {
			return "", err
		}
	}
	var found string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && found == "" && !d.IsDir() && d.Name() == c.Bin {
			found = p
		}
		return err
	})
	if err == nil && found == "" {
		err = fmt.Errorf("%s has no %s", c.Spec(), c.Bin)
	}
	return found, err
}

// maxEntry bounds one unpacked file (Claude Code for Windows is about 400 MB).
const maxEntry = 2 << 30

// untgz unpacks a gzip'd tar of regular files and folders into dir, refusing any entry
// that would land outside it.
func untgz(name, dir string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		rel := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(rel) {
			return fmt.Errorf("entry %q leaves the folder", h.Name)
		}
		p := filepath.Join(dir, rel)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if h.Mode&0o111 != 0 {
				mode = 0o755
			}
			out, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
			if err != nil {
				return err
			}
			// A client package is far below maxEntry; a larger entry is not one.
			n, err := io.CopyN(out, tr, maxEntry+1)
			if errors.Is(err, io.EOF) {
				err = nil
			}
			if err == nil && n > maxEntry {
				err = fmt.Errorf("entry %q is larger than %d bytes", h.Name, int64(maxEntry))
			}
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("entry %q is not a file or folder", h.Name)
		}
	}
}

// resolveTool finds a program on PATH or at one of the fixed places given.
func (e *Env) resolveTool(name string, fixed ...string) (string, bool) {
	if p, ok := proc.NewResolver(e.getenv).Resolve(name); ok {
		return p, true
	}
	for _, f := range fixed {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return f, true
		}
	}
	return "", false
}

func (e *Env) publisher() string { return filepath.Join(e.cfg.Cache, "bin", "publisher"+exe()) }

func (e *Env) regValidate() string {
	return filepath.Join(e.cfg.Cache, "bin", "regvalidate-"+RegistryVersion+exe())
}

// goEnv is the go command's environment: the caller's, in module mode and outside any
// workspace, with extra.
func goEnv(extra ...string) []string {
	return setEnv(os.Environ(), append([]string{"GOFLAGS=-mod=mod", "GOWORK=off"}, extra...)...)
}

func (e *Env) needGo() error {
	if e.goCmd == "" {
		return errors.New("go is not on PATH")
	}
	return nil
}

// installPublisher runs `go install` unless the cached binary already reports the
// pinned module version.
func (e *Env) installPublisher(ctx context.Context) error {
	if err := e.needGo(); err != nil {
		return err
	}
	if _, err := os.Stat(e.publisher()); err == nil {
		r := e.run(ctx, request{argv: []string{e.goCmd, "version", "-m", e.publisher()}, dir: e.cfg.Cache, env: goEnv()})
		if r.err() == nil && strings.Contains(r.Stdout, RegistryModule+"\t"+RegistryVersion) {
			return nil
		}
	}
	r := e.run(ctx, request{argv: []string{e.goCmd, "install", PublisherPkg + "@" + RegistryVersion}, dir: e.cfg.Cache,
		env: goEnv("GOBIN=" + filepath.Join(e.cfg.Cache, "bin")), timeout: 15 * time.Minute})
	if err := r.err(); err != nil {
		return fmt.Errorf("go install %s@%s: %w", PublisherPkg, RegistryVersion, err)
	}
	return nil
}

// buildRegValidate builds the validator program once per registry version.
func (e *Env) buildRegValidate(ctx context.Context) error {
	if _, err := os.Stat(e.regValidate()); err == nil {
		return nil
	}
	if err := e.needGo(); err != nil {
		return err
	}
	dir := filepath.Join(e.cfg.Cache, "regvalidate-"+RegistryVersion)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mod := "module " + RegistryModule + "/wdahostcheck/regvalidate\n\ngo 1.26.0\n\nrequire " + RegistryModule + " " + RegistryVersion + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(regvalidateSource), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", e.regValidate(), "."}} {
		r := e.run(ctx, request{argv: append([]string{e.goCmd}, args...), dir: dir, env: goEnv(), timeout: 15 * time.Minute})
		if err := r.err(); err != nil {
			return fmt.Errorf("regvalidate: go %s: %w", strings.Join(args, " "), err)
		}
	}
	return nil
}
