package policy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Sources are where the policy is looked for, strongest first (docs/policy.md,
// "Sources"): the machine's registry key, the machine's file, then, only when neither
// exists, the user's registry key. The first that exists is the policy, wholesale.
// System() gives the real ones; tests inject their own.
type Sources struct {
	// Registry reads keys; nil means no registry (every OS but Windows).
	Registry Registry
	// Machine and User are registry keys (Machine under HKLM, User under HKCU in the
	// real sources); empty skips the source.
	Machine, User Key
	// File is the machine's policy file; empty skips it.
	File string
	// Hash is the digest State.SHA256 gives of the bytes read (internal/policy/inforce
	// passes SHA-256); nil leaves it empty, so the hooks, which never show it, link no
	// hashing code (their start-up is measured).
	Hash func([]byte) string
}

// Key names a registry key: its root ("HKLM" or "HKCU", or a test's) and path.
type Key struct {
	Root, Path string
}

func (k Key) String() string { return k.Root + `\` + k.Path }

// Load reads the policy in force from src. It never fails: a source that exists but
// cannot be read or parsed is a State with Err, which refuses what would execute.
func Load(src Sources) State {
	if src.Registry != nil && src.Machine.Path != "" {
		if st, ok := loadKey(src, src.Machine); ok {
			return st
		}
	}
	if src.File != "" {
		if st, ok := loadFile(src, src.File); ok {
			return st
		}
	}
	if src.Registry != nil && src.User.Path != "" {
		if st, ok := loadKey(src, src.User); ok {
			return st
		}
	}
	return State{}
}

// System are the real sources of this OS (docs/policy.md, "Sources").
func System() Sources { return systemSources() }

// loadFile reads the policy file at path; ok is false when it does not exist.
func loadFile(src Sources, path string) (State, bool) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return State{}, false
	}
	st := State{Source: path}
	if err != nil {
		st.Err = fmt.Errorf("%s: %w", path, err)
		return st, true
	}
	defer func() { _ = f.Close() }()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		st.Err = fmt.Errorf("%s: not a regular file", path)
		return st, true
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		st.Err = fmt.Errorf("%s: %w", path, err)
		return st, true
	}
	st.SHA256 = src.hash(b)
	p, err := Parse(b)
	if err != nil {
		st.Err = fmt.Errorf("%s: %w", path, err)
		return st, true
	}
	st.Policy = p
	return st, true
}

// RegistryPath is the policy key's path under HKLM and HKCU.
const RegistryPath = `SOFTWARE\Policies\WindowsDevAgent`

func (src Sources) hash(b []byte) string {
	if src.Hash == nil {
		return ""
	}
	return src.Hash(b)
}
