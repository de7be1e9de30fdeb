package mcpconfig

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

// TestHomeIsThePlatformHome: with HOME and USERPROFILE naming different folders, the
// user-level configs, ~ in config_path and the default Codex home all use the home
// the host adapters bind ~ with (internal/platform/home: USERPROFILE first on
// Windows, HOME first elsewhere), so mcp_audit and a project argument never disagree
// about ~. CODEX_HOME follows the one rule of internal/config.CodexHome.
func TestHomeIsThePlatformHome(t *testing.T) {
	t.Parallel()
	base := testkit.TempDir(t)
	unixHome, winHome := filepath.Join(base, "home"), filepath.Join(base, "profile")
	want := unixHome
	if runtime.GOOS == "windows" {
		want = winHome
	}
	vars := func(extra map[string]string) map[string]string {
		m := map[string]string{"HOME": unixHome, "USERPROFILE": winHome}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	claude := Source{Path: filepath.Join(want, ".claude.json")}
	tests := []struct {
		name string
		env  *tools.Env
		want []Source
	}{
		{"claude host", envWith("claude", vars(nil)), []Source{claude}},
		{"codex default home", envWith("codex", vars(nil)), []Source{claude, {Path: filepath.Join(want, ".codex", "config.toml"), TOML: true}}},
		{"CODEX_HOME with ~", envWith("codex", vars(map[string]string{"CODEX_HOME": "~/cx"})), []Source{claude, {Path: filepath.Join(want, "cx", "config.toml"), TOML: true}}},
		{"CODEX_HOME with ~ and a backslash", envWith("codex", vars(map[string]string{"CODEX_HOME": `~\cx`})), []Source{claude, {Path: filepath.Join(want, "cx", "config.toml"), TOML: true}}},
		{"CODEX_HOME unexpanded counts as unset", envWith("codex", vars(map[string]string{"CODEX_HOME": "${CODEX_HOME}"})), []Source{claude, {Path: filepath.Join(want, ".codex", "config.toml"), TOML: true}}},
		{"CODEX_HOME relative is no Codex home", envWith("codex", vars(map[string]string{"CODEX_HOME": "cx"})), []Source{claude}},
		{"only HOME", envWith("codex", map[string]string{"HOME": unixHome}), []Source{{Path: filepath.Join(unixHome, ".claude.json")}, {Path: filepath.Join(unixHome, ".codex", "config.toml"), TOML: true}}},
		{"relative homes are no home", envWith("codex", map[string]string{"HOME": "h", "USERPROFILE": "p"}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, HostSources(tt.env)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}

	root := testkit.TempDir(t)
	p := testkit.Project(t, root)
	for _, in := range []string{"~/x.json", `~\x.json`} {
		got := ExplicitSource(envWith("claude", vars(nil)), p, "", in)
		if got.Path != filepath.Join(want, "x.json") || got.Project != nil {
			t.Errorf("ExplicitSource(%q) = %+v, want the file x.json in %s read as a host file", in, got, want)
		}
	}
	if got := ExplicitSource(envWith("claude", nil), p, "", "~/x.json"); got.Path != filepath.Join(root, "~", "x.json") {
		t.Errorf("with no home, ~ is an ordinary name under the project: %+v", got)
	}
}
