//go:build !windows

package guard

import (
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	abs := func(p string) string { return filepath.FromSlash(p) }
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
			if got := Within(abs(tt.root), abs(tt.p)); got != tt.want {
				t.Errorf("Within(%q, %q) = %v, want %v", tt.root, tt.p, got, tt.want)
			}
		})
	}
}
