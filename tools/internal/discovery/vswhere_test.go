package discovery

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/windows-dev-agent/wda/internal/proc"
)

func TestVisualStudioAvailability(t *testing.T) {
	dir := t.TempDir()
	locator := filepath.Join(dir, "Installer", "vswhere.exe")
	if err := os.MkdirAll(filepath.Dir(locator), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(locator, []byte("MZ"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A directory named like the VS install is never evidence.
	vsDir := filepath.Join(dir, "Microsoft Visual Studio")
	if err := os.MkdirAll(vsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	empty := searchPath{}
	cases := []struct {
		name     string
		locators []string
		receipt  proc.Receipt
		want     *bool
		started  bool
		err      string
	}{
		{"no locator gives null", []string{filepath.Join(dir, "nope.exe"), vsDir}, proc.Receipt{}, N, false, ""},
		{"installation path", []string{locator}, okReceipt(0, "C:\\Program Files\\Microsoft Visual Studio\\2022\\Community\r\n", ""), T, true, ""},
		{"empty output", []string{locator}, okReceipt(0, "\r\n", ""), F, true, ""},
		{"non-zero exit", []string{locator}, okReceipt(87, "", "bad"), N, true, "Visual Studio Installer locator exited 87"},
		{"truncated", []string{locator}, func() proc.Receipt { r := okReceipt(0, "C:\\VS", ""); r.StdoutTruncated = true; return r }(), N, true, "incomplete or truncated"},
		{"timeout", []string{locator}, proc.Receipt{ExecutionStarted: true, TimedOut: true}, N, true, "timed out"},
		{"refused", []string{locator}, proc.Receipt{Error: "identity mismatch"}, N, false, "could not start"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &fakeRunner{receipt: func(proc.Request) proc.Receipt { return c.receipt }}
			got, started, err := visualStudio(t.Context(), empty, c.locators, r)
			if tri(got) != tri(c.want) || started != c.started {
				t.Fatalf("got %s started %v, want %s %v (err %v)", tri(got), started, tri(c.want), c.started, err)
			}
			if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("err = %v, want %q", err, c.err)
			}
			if c.want == nil && c.err == "" && r.calls() != 0 {
				t.Fatal("no locator must launch nothing")
			}
			if r.calls() == 1 {
				req := r.reqs[0]
				if diff := cmp.Diff([]string{locator, "-prerelease", "-latest", "-property", "installationPath"}, req.Argv); diff != "" {
					t.Errorf("argv (-want +got):\n%s", diff)
				}
				if req.Timeout != vswhereTimeout || req.StdoutLimit != vswhereStdoutLimit || req.StderrLimit != vswhereStderrLimit || req.Dir != filepath.Dir(locator) {
					t.Errorf("request %+v", req)
				}
			}
		})
	}
}

func TestPresenceMapping(t *testing.T) {
	ev := editorEvidence{VSCodeFile: N, VisualStudio: T, Rider: F, PyCharm: T, CLion: N}
	tf := presence(searchPath{}, ev) // nothing on the path
	if !IsFalse(tf.Tools.GitAvailable) || tf.Tools.VSCodeAvailable != nil || !IsTrue(tf.Tools.VisualStudioAvailable) {
		t.Fatalf("tools %+v", tf.Tools)
	}
	if tri(tf.Editors.VisualStudio) != tri(tf.Tools.VisualStudioAvailable) || tri(tf.Editors.VisualStudioCode) != tri(tf.Tools.VSCodeAvailable) {
		t.Fatal("editor and tool fields of the same fact must agree")
	}
	for _, r := range []Runtime{tf.Runtimes.Python, tf.Runtimes.Node, tf.Runtimes.Rust, tf.Runtimes.Golang, tf.Runtimes.Dotnet} {
		if r.Version != nil || r.Versions == nil || len(r.Versions) != 0 {
			t.Fatalf("runtime versions are tool_discover's: %+v", r)
		}
	}
	if tf2 := presence(searchPath{}, editorEvidence{VSCodeFile: T}); !IsTrue(tf2.Tools.VSCodeAvailable) {
		t.Fatal("Code.exe evidence makes VS Code present")
	}
}
