package guard

import "testing"

func TestStripPrefix(t *testing.T) {
	tests := map[string]string{
		`\\?\C:\proj\a.json`:          `C:\proj\a.json`,
		`\\?\UNC\server\share\a.json`: `\\server\share\a.json`,
		`C:\proj`:                     `C:\proj`,
		`\\server\share`:              `\\server\share`,
	}
	for in, want := range tests {
		if got := stripPrefix(in); got != want {
			t.Errorf("stripPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}
