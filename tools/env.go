package tools

import (
	"context"
	"os"
)

// Env is what a handler may know about the call's surroundings. It is built per call
// (a host binder may rebind it) and never read from process-wide mutable state, so
// concurrent calls with different bindings cannot see each other.
type Env struct {
	// Host is "claude", "codex" or "generic".
	Host string
	// DataDir holds the cache, the audit log and sandbox bundles. Never inside the
	// plugin code tree.
	DataDir string
	// ProjectDir is the default project directory for project-scoped tools.
	ProjectDir string
	// Catalog is the capabilities.yaml source in force.
	Catalog []byte
	// Getenv reads the environment a handler is allowed to see (PATH, APPDATA, HOME…).
	Getenv func(string) string
}

// Lookup reads a variable through Getenv (os.Getenv when unset).
func (e *Env) Lookup(key string) string {
	if e.Getenv != nil {
		return e.Getenv(key)
	}
	return os.Getenv(key)
}

type envKey struct{}

// WithEnv attaches a per-call Env to ctx.
func WithEnv(ctx context.Context, e *Env) context.Context { return context.WithValue(ctx, envKey{}, e) }

// EnvFrom returns the Env attached by WithEnv, or nil.
func EnvFrom(ctx context.Context) *Env { e, _ := ctx.Value(envKey{}).(*Env); return e }
