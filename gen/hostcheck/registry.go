package hostcheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen"
	"github.com/windows-dev-agent/wda/gen/release"
)

// validateEndpoint answers POST /v0/validate, the one registry call `mcp-publisher
// validate` makes, by running the registry's own validator on the body.
func (e *Env) validateEndpoint(ctx context.Context) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v0/validate", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxRequest))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f, err := os.CreateTemp(e.work, "validate-*.json")
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_, werr := f.Write(body)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			http.Error(w, werr.Error(), http.StatusInternalServerError)
			return
		}
		res := e.run(ctx, request{argv: []string{e.regValidate(), f.Name()}, dir: e.work, env: e.clientEnv(e.work), timeout: time.Minute})
		if err := res.err(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, res.Stdout)
	})
	return mux
}

// publisherValidate runs `mcp-publisher validate file` against the loopback registry.
func (e *Env) publisherValidate(ctx context.Context, file string) (receipt, error) {
	registry, err := serve(e.validateEndpoint(ctx))
	if err != nil {
		return receipt{}, err
	}
	defer func() { _ = registry.Close() }() // the run is over; its answer is in hand
	home, err := e.home("publisher")
	if err != nil {
		return receipt{}, err
	}
	// The publisher reads its registry URL from its token file, in the user's home.
	cfgDir := filepath.Join(home, ".config", "mcp-publisher")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		return receipt{}, err
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "token.json"), []byte(`{"registry":"`+registry.URL+`"}`), 0o600); err != nil {
		return receipt{}, err
	}
	env := e.clientEnv(home, "CI=1")
	if goruntime.GOOS == "windows" {
		env = append(env, "APPDATA="+filepath.Join(home, ".config"))
	}
	return e.run(ctx, request{argv: []string{e.publisher(), "validate", file}, dir: filepath.Dir(file), env: env}), nil
}

func (e *Env) registryGroup() Group {
	filled := func() string { return filepath.Join(e.release, release.RegistryDir, "server.json") }
	return Group{Name: "registry (mcp-publisher " + RegistryVersion + ")", Checks: []Check{
		{Name: "validate refuses the unfilled template", Independent: true, Run: func(ctx context.Context) error {
			r, err := e.publisherValidate(ctx, filepath.Join(e.cfg.Module, "dist", filepath.FromSlash(gen.RegistryTemplatePath)))
			if err != nil {
				return err
			}
			if r.err() == nil || !strings.Contains(r.output(), "fileSha256") {
				return fmt.Errorf("the placeholder passed: %s", tail(r.output()))
			}
			return nil
		}},
		{Name: "validate accepts the release's registry/server.json", Run: func(ctx context.Context) error {
			r, err := e.publisherValidate(ctx, filled())
			if err != nil {
				return err
			}
			if err := r.err(); err != nil {
				return err
			}
			if !strings.Contains(r.output(), "server.json is valid") {
				return fmt.Errorf("validate said: %s", tail(r.output()))
			}
			return nil
		}},
		{Name: "each package names a release bundle of this version and its SHA-256", Independent: true, Run: func(context.Context) error {
			return e.registryNamesTheBundles(filled())
		}},
	}}
}

// registryNamesTheBundles checks every package of the filled server.json: its
// identifier is the download URL of one of the release's bundles under the version's
// GitHub release (docs/release.md), and its fileSha256 that bundle's hash.
func (e *Env) registryNamesTheBundles(file string) error {
	raw, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var s struct {
		Version  string
		Packages []struct {
			Identifier, Version, FileSha256 string
		}
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return err
	}
	if s.Version != e.manifest.Version || len(s.Packages) != len(gen.MCPBArchs) {
		return fmt.Errorf("version %s with %d packages, want %s with %d", s.Version, len(s.Packages), e.manifest.Version, len(gen.MCPBArchs))
	}
	for i, arch := range gen.MCPBArchs {
		p := s.Packages[i]
		name := gen.MCPBAssetName(e.manifest.Version, arch)
		if !strings.HasSuffix(p.Identifier, "/releases/download/v"+e.manifest.Version+"/"+name) || p.Version != e.manifest.Version {
			return fmt.Errorf("package %d is %s %s, want the %s release asset %s", i, p.Identifier, p.Version, "v"+e.manifest.Version, name)
		}
		b, err := os.ReadFile(e.bundle(arch))
		if err != nil {
			return err
		}
		if sum := sha256.Sum256(b); p.FileSha256 != hex.EncodeToString(sum[:]) {
			return fmt.Errorf("package %d: fileSha256 %s is not the sha256 of %s", i, p.FileSha256, e.bundle(arch))
		}
	}
	return nil
}
