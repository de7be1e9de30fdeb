//go:build !windows

package remote

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadTokenFileMode: a token file any group or other bit opens is refused, and
// the error names the mode and the fix; 0600 and 0400 are accepted.
func TestLoadTokenFileMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode os.FileMode
		ok   bool
	}{{0o600, true}, {0o400, true}, {0o640, false}, {0o604, false}, {0o644, false}, {0o660, false}, {0o602, false}} {
		ts, err := LoadTokenFile(writeTokens(t, tc.mode))
		if tc.ok {
			if err != nil || len(ts) != 1 || ts[0].Name != "ci-agent" {
				t.Errorf("mode %04o: %v, %v", tc.mode, ts, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "lets others read it: chmod 600") {
			t.Errorf("mode %04o: err = %v, want a refusal", tc.mode, err)
		}
	}
}

// writeTokens writes one token line to a file with the given mode bits.
func writeTokens(t *testing.T, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(p, []byte("ci-agent "+tokA+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}
