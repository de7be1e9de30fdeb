package hostcheck

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"
)

// regvalidateSource is a loopback-free stand-in for the registry's POST /v0/validate:
// it runs the registry's own validators.ValidateServerJSON on one file and prints the
// result. It imports the registry's internal packages, which Go allows only to a
// package whose path lies under the registry module's, so it is built as its own
// module named inside that path, pinned to RegistryVersion.
//
//go:embed regvalidate.go.txt
var regvalidateSource string

// installGroup puts every pinned client into the cache: the npm packages at their
// exact versions (skipping those already there), mcp-publisher by `go install`, and
// the registry validator. Each is a check of its own.
func (e *Env) installGroup() Group {
	var names []string
	for _, c := range NPMClients {
		names = append(names, c.Package+"@"+c.Version)
	}
	return Group{Name: "install", Checks: []Check{
		{Name: "npm " + strings.Join(names, " "), Independent: true, Run: e.installNPM},
		{Name: "go install " + PublisherPkg + "@" + RegistryVersion, Independent: true, Run: e.installPublisher},
		{Name: "the registry's validator " + RegistryVersion, Independent: true, Run: e.buildRegValidate},
	}}
}

// installNPM installs the pinned npm clients missing from the cache.
func (e *Env) installNPM(ctx context.Context) error {
	var missing []string
	for _, c := range NPMClients {
		if _, err := e.binScript(c); err != nil {
			missing = append(missing, c.Package+"@"+c.Version)
		}
	}
	if len(missing) > 0 {
		npm, err := e.npmCLI()
		if err != nil {
			return err
		}
		args := append([]string{e.node, npm, "install", "--prefix", e.cfg.Cache, "--save-exact", "--no-audit", "--no-fund"}, missing...)
		// npm runs with the caller's own environment and configuration (registry,
		// proxy, certificates): installing is the one step that needs the network.
		env := append(os.Environ(), "npm_config_update_notifier=false", "PATH="+filepath.Dir(e.node)+string(os.PathListSeparator)+e.getenv("PATH"))
		r := e.run(ctx, request{argv: args, dir: e.cfg.Cache, env: env, timeout: 15 * time.Minute})
		if err := r.err(); err != nil {
			return fmt.Errorf("npm install %s: %w", strings.Join(missing, " "), err)
		}
	}
	for _, c := range NPMClients {
		if _, err := e.binScript(c); err != nil {
			return err
		}
	}
	return nil
}

// npmCLI is npm's own script (run under node: npm's launcher is a shell script or a
// .cmd file, neither of which the process runner starts).
func (e *Env) npmCLI() (string, error) {
	var candidates []string
	dir := filepath.Dir(e.node)
	if goruntime.GOOS == "windows" {
		candidates = append(candidates, filepath.Join(dir, "node_modules", "npm", "bin", "npm-cli.js"))
	} else {
		candidates = append(candidates, filepath.Join(dir, "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"))
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

func (e *Env) publisher() string { return filepath.Join(e.cfg.Cache, "bin", "publisher"+exe()) }

func (e *Env) regValidate() string {
	return filepath.Join(e.cfg.Cache, "bin", "regvalidate-"+RegistryVersion+exe())
}

// goEnv is the go command's environment: the caller's, with GOBIN and module mode set.
func goEnv(extra ...string) []string {
	return append(os.Environ(), append([]string{"GOFLAGS=-mod=mod", "GOWORK=off"}, extra...)...)
}

// installPublisher runs `go install` unless the cached binary already reports the
// pinned module version.
func (e *Env) installPublisher(ctx context.Context) error {
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
