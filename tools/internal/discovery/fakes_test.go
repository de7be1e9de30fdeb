package discovery

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// fakeKey is one registry key of fakeRegistry.
type fakeKey struct {
	dwords  map[string]uint32
	strings map[string]string
}

// fakeRegistry is a map-backed Registry. fail maps "HIVE\path" or "HIVE\path:value"
// to an error returned by any read that touches it.
type fakeRegistry struct {
	keys map[string]*fakeKey
	fail map[string]error
}

func newFakeRegistry() *fakeRegistry {
	return &fakeRegistry{keys: map[string]*fakeKey{}, fail: map[string]error{}}
}

func fk(root Root, path string) string { return root.String() + `\` + strings.ToLower(path) }

func (r *fakeRegistry) key(root Root, path string) *fakeKey {
	k := r.keys[fk(root, path)]
	if k == nil {
		k = &fakeKey{dwords: map[string]uint32{}, strings: map[string]string{}}
		r.keys[fk(root, path)] = k
	}
	return k
}

func (r *fakeRegistry) setDWORD(root Root, path, name string, v uint32) *fakeRegistry {
	r.key(root, path).dwords[name] = v
	return r
}

func (r *fakeRegistry) setString(root Root, path, name, v string) *fakeRegistry {
	r.key(root, path).strings[name] = v
	return r
}

func (r *fakeRegistry) failOn(root Root, path, value string) *fakeRegistry {
	k := fk(root, path)
	if value != "" {
		k += ":" + value
	}
	r.fail[k] = errors.New("Access is denied.")
	return r
}

func (r *fakeRegistry) check(root Root, path, value string) error {
	if err := r.fail[fk(root, path)]; err != nil {
		return err
	}
	if value != "" {
		return r.fail[fk(root, path)+":"+value]
	}
	return nil
}

func (r *fakeRegistry) KeyExists(root Root, path string) (bool, error) {
	if err := r.check(root, path, ""); err != nil {
		return false, err
	}
	_, ok := r.keys[fk(root, path)]
	return ok, nil
}

func (r *fakeRegistry) DWORD(root Root, path, name string) (uint32, bool, error) {
	if err := r.check(root, path, name); err != nil {
		return 0, false, err
	}
	k, ok := r.keys[fk(root, path)]
	if !ok {
		return 0, false, nil
	}
	v, ok := k.dwords[name]
	return v, ok, nil
}

func (r *fakeRegistry) String(root Root, path, name string) (string, bool, error) {
	if err := r.check(root, path, name); err != nil {
		return "", false, err
	}
	k, ok := r.keys[fk(root, path)]
	if !ok {
		return "", false, nil
	}
	v, ok := k.strings[name]
	return v, ok, nil
}

func (r *fakeRegistry) SubKeys(root Root, path string) ([]string, bool, error) {
	if err := r.check(root, path, ""); err != nil {
		return nil, false, err
	}
	prefix := fk(root, path) + `\`
	if _, ok := r.keys[fk(root, path)]; !ok {
		return nil, false, nil
	}
	var out []string
	for k := range r.keys {
		if rest, ok := strings.CutPrefix(k, prefix); ok && !strings.Contains(rest, `\`) {
			out = append(out, rest)
		}
	}
	return out, true, nil
}

// addDistro registers a distribution under HKCU Lxss; version 0 leaves Version unset.
func (r *fakeRegistry) addDistro(guid, name string, version uint32, isDefault bool) *fakeRegistry {
	r.key(CurrentUser, keyLxss)
	r.setString(CurrentUser, keyLxss+`\`+guid, "DistributionName", name)
	if version != 0 {
		r.setDWORD(CurrentUser, keyLxss+`\`+guid, "Version", version)
	}
	if isDefault {
		r.setString(CurrentUser, keyLxss, "DefaultDistribution", guid)
	}
	return r
}

// fakeRunner records requests and answers with a canned receipt; it starts nothing.
type fakeRunner struct {
	mu      sync.Mutex
	reqs    []proc.Request
	receipt func(proc.Request) proc.Receipt
}

func (f *fakeRunner) Run(_ context.Context, req proc.Request) proc.Receipt {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if f.receipt == nil {
		return proc.Receipt{Argv: req.Argv, Error: "fake runner: no receipt"}
	}
	r := f.receipt(req)
	r.Argv = req.Argv
	return r
}

func (f *fakeRunner) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// okReceipt is a completed run with whole output.
func okReceipt(code int, stdout, stderr string) proc.Receipt {
	return proc.Receipt{Succeeded: code == 0, ReturnCode: &code, Stdout: stdout, Stderr: stderr,
		ExecutionStarted: true, OutputCaptureComplete: true, OutputCaptureSettled: true}
}

// staticProducer returns fixed facts and counts its runs.
type staticProducer struct {
	name  string
	facts func() Facts
	mu    *sync.Mutex
	runs  *int
}

func newStatic(name string, facts func() Facts) staticProducer {
	return staticProducer{name: name, facts: facts, mu: &sync.Mutex{}, runs: new(int)}
}

func (p staticProducer) Name() string { return p.name }

func (p staticProducer) Produce(context.Context) Facts {
	p.mu.Lock()
	*p.runs++
	p.mu.Unlock()
	return p.facts()
}

func (p staticProducer) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return *p.runs
}
