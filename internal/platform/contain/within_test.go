package contain_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/platform/contain"
)

// TestWithin is the containment table internal/guard carried before it used this
// package (moved with the code).
func TestWithin(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Unix paths; see TestWithinCaseInsensitive")
	}
	tests := []struct {
		name    string
		root, p string
		want    bool
	}{
		{"root itself", "/a/b", "/a/b", true},
		{"child", "/a/b", "/a/b/c", true},
		{"deep child", "/a/b", "/a/b/c/d/e.json", true},
		{"string prefix is not containment", "/a/b", "/a/bc", false},
		{"sibling", "/a/b", "/a/c", false},
		{"parent", "/a/b", "/a", false},
		{"dotdot climbs out", "/a/b", "/a/b/../c", false},
		{"dotdot stays in", "/a/b", "/a/b/c/../d", true},
		{"trailing separator", "/a/b/", "/a/b/c", true},
		{"relative path", "/a/b", "a/b/c", false},
		{"relative root", "a/b", "/a/b/c", false},
		{"filesystem root", "/", "/etc/passwd", true},
		{"case differs", "/a/B", "/a/b/c", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := contain.Within(tt.root, tt.p); got != tt.want {
				t.Errorf("Within(%q, %q) = %v, want %v", tt.root, tt.p, got, tt.want)
			}
		})
	}
}

func TestWithinCaseInsensitive(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "windows" {
		t.Skip("Windows paths")
	}
	if !contain.Within(`C:\Proj`, `c:\proj\A\b.json`) || contain.Within(`C:\Proj`, `C:\Project\x`) || contain.Within(`C:\a`, `D:\a\b`) {
		t.Fatal("Within must compare components case-insensitively and volumes exactly")
	}
}

// FuzzWithin checks Within against filepath.Rel on arbitrary absolute paths.
func FuzzWithin(f *testing.F) {
	f.Add("/a/b", "/a/b/c")
	f.Add("/a/b", "/a/bc")
	f.Add("/a/b/", "/a/b/../b/c")
	f.Add("/", "/x")
	f.Fuzz(func(t *testing.T, root, p string) {
		if !filepath.IsAbs(root) || !filepath.IsAbs(p) || strings.ContainsRune(root+p, 0) {
			if contain.Within(root, p) && (!filepath.IsAbs(root) || !filepath.IsAbs(p)) {
				t.Fatalf("Within accepted a relative path: %q %q", root, p)
			}
			return
		}
		r, err := filepath.Rel(root, p)
		inside := err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
		if got := contain.Within(root, p); got != inside && filepath.Separator == '/' {
			t.Fatalf("Within(%q, %q) = %v, filepath.Rel says %q (%v)", root, p, got, r, err)
		}
	})
}
