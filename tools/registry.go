package tools

import (
	"fmt"
	"slices"
	"sync"
)

// Registry holds tools by name. The zero value is not usable; call New.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]Tool
}

// New returns an empty registry, for tests and embedders that want a chosen subset.
func New() *Registry { return &Registry{tools: map[string]Tool{}} }

// Register adds t. Like database/sql drivers, a nil tool, an empty name or a duplicate
// name panics: it can only be a programming error and should stop every binary.
func (r *Registry) Register(t Tool) {
	if t == nil || t.Name() == "" {
		panic("runtime: Register of a nil or unnamed tool")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[t.Name()]; dup {
		panic(fmt.Sprintf("runtime: Register called twice for tool %s", t.Name()))
	}
	r.tools[t.Name()] = t
}

// Lookup returns the tool named name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[name]
	return t, ok
}

// Tools returns a copy of the tools in registry order (Order, then name).
func (r *Registry) Tools() []Tool {
	r.mu.RLock()
	out := make([]Tool, 0, len(r.tools))
	for _, t := range r.tools {
		out = append(out, t)
	}
	r.mu.RUnlock()
	slices.SortFunc(out, func(a, b Tool) int {
		if a.Order() != b.Order() {
			return a.Order() - b.Order()
		}
		if a.Name() < b.Name() {
			return -1
		}
		return 1
	})
	return out
}

// Names returns the tool names in registry order.
func (r *Registry) Names() []string {
	ts := r.Tools()
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name()
	}
	return names
}

// Subset returns a new registry holding only the named tools. A name the registry does
// not hold is an error an embedder can handle (a tool package not imported, a typo),
// not a panic; a name given twice is the tool once.
func (r *Registry) Subset(names ...string) (*Registry, error) {
	s := New()
	for _, n := range names {
		t, ok := r.Lookup(n)
		if !ok {
			return nil, fmt.Errorf("tools: Subset: no tool named %q is registered (have %v; the ten register when a program imports _ \"github.com/windows-dev-agent/wda/tools/all\")", n, r.Names())
		}
		if _, dup := s.Lookup(n); !dup {
			s.Register(t)
		}
	}
	return s, nil
}

var defaultRegistry = New()

// Register adds t to the default registry. Tool packages call it from init(), once.
func Register(t Tool) { defaultRegistry.Register(t) }

// Default returns the default registry that tool packages register into.
func Default() *Registry { return defaultRegistry }
