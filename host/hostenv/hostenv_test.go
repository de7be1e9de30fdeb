package hostenv

import "testing"

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestVar(t *testing.T) {
	g := env(map[string]string{
		"A": "  /x  ", "B": "${CLAUDE_PLUGIN_DATA}", "C": "   ", "D": "%APPDATA%", "E": "/data/${X}",
		"F": "C:\\100%",
	})
	for k, want := range map[string]string{"A": "/x", "B": "", "C": "", "D": "", "E": "", "F": "C:\\100%", "Z": ""} {
		if got := Var(g, k); got != want {
			t.Errorf("Var(%s) = %q, want %q", k, got, want)
		}
	}
}
