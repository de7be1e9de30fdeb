package filever

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ms, ls uint32
		want   string
		err    bool
	}{
		{0x00110002, 0x00030004, "17.2.3.4", false},
		{0xffffffff, 0xffffffff, "65535.65535.65535.65535", false},
		{0, 1, "0.0.0.1", false},
		{0x00010000, 0, "1.0.0.0", false},
		{0, 0, "", true},
	}
	for _, tt := range tests {
		got, err := format(tt.ms, tt.ls)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("format(%#x, %#x) = %q, %v; want %q, error %v", tt.ms, tt.ls, got, err, tt.want, tt.err)
		}
	}
}

func TestVersionRefusals(t *testing.T) {
	t.Parallel()
	// A relative path never yields a version, on any platform.
	if v, err := Version("notepad.exe"); err == nil || v != "" {
		t.Errorf("relative path: %q, %v", v, err)
	}
	missing := filepath.Join(t.TempDir(), "missing.exe")
	if v, err := Version(missing); err == nil || v != "" {
		t.Errorf("missing file: %q, %v", v, err)
	}
	if runtime.GOOS != "windows" {
		_, err := Version(missing)
		if !strings.Contains(err.Error(), runtime.GOOS) {
			t.Errorf("error %q does not name the platform", err)
		}
	}
}
