package hostcheck

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/gen"
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
	defer registry.Close()
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
	env := e.clientEnv(home)
	if goruntime.GOOS == "windows" {
		env = append(env, "APPDATA="+filepath.Join(home, ".config"))
	}
	return e.run(ctx, request{argv: []string{e.publisher(), "validate", file}, dir: filepath.Dir(file), env: env}), nil
}

func (e *Env) registryGroup() Group {
	var filled string
	return Group{Name: "registry (mcp-publisher " + RegistryVersion + ")", Checks: []Check{
		{Name: "validate refuses the unfilled template", Independent: true, Run: func(ctx context.Context) error {
			r, err := e.publisherValidate(ctx, filepath.Join(e.cfg.Dist, filepath.FromSlash(gen.RegistryTemplatePath)))
			if err != nil {
				return err
			}
			if r.err() == nil || !strings.Contains(r.output(), "fileSha256") {
				return fmt.Errorf("the placeholder passed: %s", tail(r.output()))
			}
			return nil
		}},
		{Name: "validate accepts server.json filled from a packed bundle", Run: func(ctx context.Context) error {
			sum, err := e.packedSHA256()
			if err != nil {
				return err
			}
			tmpl, err := os.ReadFile(filepath.Join(e.cfg.Dist, filepath.FromSlash(gen.RegistryTemplatePath)))
			if err != nil {
				return err
			}
			out, err := gen.FillServerJSON(tmpl, func(string) (string, error) { return sum, nil })
			if err != nil {
				return err
			}
			filled = filepath.Join(e.work, "registry", "server.json")
			if err := gen.WriteFile(filled, out); err != nil {
				return err
			}
			r, err := e.publisherValidate(ctx, filled)
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
	}}
}

// packedSHA256 is the hash of the bundle the MCPB checks packed (every package entry
// gets it: the check proves the format, the release fills each architecture's own).
func (e *Env) packedSHA256() (string, error) {
	b, err := os.ReadFile(filepath.Join(e.work, gen.MCPBAsset(goruntime.GOARCH)))
	if err != nil {
		return "", fmt.Errorf("the MCPB checks packed no bundle: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
