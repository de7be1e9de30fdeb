package discovery

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

// FuzzParseSnapshot: whatever a cache file or producer holds, parsing never panics,
// and anything that parses re-serializes to a fixed point with the canonical keys.
func FuzzParseSnapshot(f *testing.F) {
	b, _ := json.Marshal(fullSnapshot())
	f.Add(b)
	f.Add([]byte(`{"timestamp":"2026-11-29T10:30:00Z"}`))
	f.Add([]byte(`{"timestamp":"2026-11-29T10:30:00.1234567-05:00","virtualization":{"dev_drives":[]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := Parse(raw)
		if err != nil {
			return
		}
		b1, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("marshal of a parsed snapshot: %v", err)
		}
		s2, err := Parse(b1)
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, b1)
		}
		b2, _ := json.Marshal(s2)
		if !bytes.Equal(b1, b2) {
			t.Fatalf("not a fixed point:\n%s\n%s", b1, b2)
		}
		if !bytes.Contains(b1, []byte(`"probe_states":{`)) || bytes.Contains(b1, []byte(`"username"`)) {
			t.Fatalf("shape: %s", b1)
		}
	})
}

// FuzzSearchPath: sanitizing any PATH never panics, never keeps a relative entry, the
// cwd, or a duplicate.
func FuzzSearchPath(f *testing.F) {
	f.Add("/usr/bin:/bin::.:relative:'/opt/x':/usr/bin/", "/work", false)
	f.Add(`C:\Windows;"C:\Tools";%SystemRoot%\System32;;.\bin`, `C:\work`, true)
	f.Fuzz(func(t *testing.T, path, cwd string, windows bool) {
		getenv := func(k string) string {
			if k == "PATH" {
				return path
			}
			return ""
		}
		sp := newSearchPath(getenv, cwd, windows)
		seen := map[string]bool{}
		for _, d := range sp.dirs {
			k := sp.key(d)
			if seen[k] || d == "" {
				t.Fatalf("duplicate or empty dir %q in %q", d, sp.dirs)
			}
			seen[k] = true
			if !filepath.IsAbs(d) {
				t.Fatalf("relative dir %q kept", d)
			}
			if cwd != "" && k == sp.key(normalizeDir(cwd)) {
				t.Fatalf("cwd %q kept", cwd)
			}
		}
	})
}
