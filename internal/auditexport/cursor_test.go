package auditexport

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// TestBadCursorStopsTheExport: a cursor file that does not parse is an error naming the
// file, and nothing is sent (starting over would send everything again).
func TestBadCursorStopsTheExport(t *testing.T) {
	t.Parallel()
	for _, content := range []string{"", "garbage", `{"version":1,"head":"abc","offset":1}`, `{"version":2,"head":"","offset":0}`,
		`{"version":1,"head":"","offset":-1}`, `{"version":1,"head":"","offset":0,"extra":1}`} {
		dir := t.TempDir()
		rc := newReceiver(t, ProtocolHTTP)
		appendCalls(t, dir, 0, 2)
		path := filepath.Join(dir, audit.CursorName)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := newTestShipper(t, dir, rc).step(context.Background())
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: error %v, want one naming %s", content, err, path)
		}
		if n := len(rc.records()); n != 0 {
			t.Errorf("%q: %d records sent", content, n)
		}
	}
}

// FuzzReadCursor: any cursor file is read or refused; what is read is a cursor of this
// version with a head of the right shape and an offset that is not negative.
func FuzzReadCursor(f *testing.F) {
	for _, s := range []string{`{"version":1,"head":"","offset":0}`, `{"version":1,"head":"` + strings.Repeat("a", 64) + `","offset":12,"sealed":true}`, "x", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "c")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := readCursor(path)
		if err != nil {
			return
		}
		if c.Version != cursorVersion || c.Offset < 0 || (c.Head != "" && len(c.Head) != 64) {
			t.Fatalf("accepted %+v", c)
		}
	})
}
