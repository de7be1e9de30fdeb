package payload

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/guard"
)

func mustValidate(t testing.TB, ws string, paths ...string) *Selection {
	t.Helper()
	sel, err := Validate(bind(t, ws), paths)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

func TestStageLayout(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	files := map[string]string{
		"src/main.c":              "int main(){}",
		"src/lib/util.h":          "#pragma once",
		"src/empty/":              "",
		"docs/with space/ü 日本.md": "unicode",
		"tool.exe":                "MZ",
		"not-selected.txt":        "no",
	}
	if runtime.GOOS != "windows" {
		files["odd./trailing dot ."] = "dots"
	}
	tree(t, ws, files)
	paths := []string{"src", "docs/with space", "tool.exe"}
	if runtime.GOOS != "windows" {
		paths = append(paths, "odd.")
	}
	data := t.TempDir()
	b, err := Stage(data, mustValidate(t, ws, paths...), "echo hi")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(b.Dir) != filepath.Join(data, RunsDir) || !strings.HasPrefix(filepath.Base(b.Dir), BundlePrefix) {
		t.Fatalf("bundle at %s, want %s/%s*", b.Dir, filepath.Join(data, RunsDir), BundlePrefix)
	}
	if b.Config != filepath.Join(b.Dir, ConfigFile) || b.Share != filepath.Join(b.Dir, ShareDir) {
		t.Fatalf("bundle paths %+v", b)
	}
	got := snapshot(t, b.Dir)
	want := map[string]string{MarkerFile: "1", ConfigFile: got[ConfigFile], "share/": "",
		"share/run.cmd": string(RunCmd("echo hi")), "share/payload/": ""}
	for name, content := range files {
		if name == "not-selected.txt" {
			continue
		}
		want["share/payload/"+name] = content
		for d := filepath.ToSlash(filepath.Dir(name)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			want["share/payload/"+d+"/"] = ""
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("bundle contents (-want +got):\n%s", diff)
	}
	wsb, _ := WSB(b.Share)
	if got[ConfigFile] != string(wsb) {
		t.Fatalf("run.wsb is not WSB(share):\n%s", got[ConfigFile])
	}
	if err := Remove(b.Dir); err != nil {
		t.Fatal(err)
	}
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("Remove left %v", n)
	}
}

func TestStageWholeWorkspace(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"a/b.txt": "b", "c.txt": "c"})
	b, err := Stage(t.TempDir(), mustValidate(t, ws, "."), "dir")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snapshot(t, ws), snapshot(t, filepath.Join(b.Share, PayloadDir))); diff != "" {
		t.Fatalf("payload (-workspace +staged):\n%s", diff)
	}
}

// TestStageRecountsBudgets: budgets are recounted from zero at staging, so growth
// after nomination is refused, and refusal leaves no bundle.
func TestStageRecountsBudgets(t *testing.T) {
	t.Parallel()
	small := limits{entries: 4, bytes: 100}
	tests := []struct {
		name   string
		change func(t *testing.T, ws string)
		want   string
	}{
		{"file grown past the byte budget", func(t *testing.T, ws string) {
			tree(t, ws, map[string]string{"d/f.txt": strings.Repeat("x", 101)})
		}, "staging byte budget"},
		{"second file tips the byte budget", func(t *testing.T, ws string) {
			tree(t, ws, map[string]string{"d/g.txt": strings.Repeat("y", 60)})
		}, "staging byte budget"},
		{"entry added past the budget", func(t *testing.T, ws string) {
			tree(t, ws, map[string]string{"d/h.txt": "", "d/i.txt": ""})
		}, "staging entry budget"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, data := t.TempDir(), t.TempDir()
			tree(t, ws, map[string]string{"d/f.txt": strings.Repeat("x", 50), "d/g.txt": "g"})
			sel, err := validate(bind(t, ws), []string{"d"}, small, (*guard.Dir).Stat)
			if err != nil {
				t.Fatal(err)
			}
			tc.change(t, ws)
			_, err = stage(data, sel, "x", small, nil)
			errContains(t, err, tc.want)
			if n := bundles(t, data); len(n) != 0 {
				t.Fatalf("failed staging left %v", n)
			}
		})
	}
}

// TestStageGrownPastRealBudget: the real 1 GiB budget, with a sparse file that grows
// after nomination; staging refuses it from the opened handle's size without copying.
func TestStageGrownPastRealBudget(t *testing.T) {
	t.Parallel()
	ws, data := t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"big.bin": "small now"})
	sel := mustValidate(t, ws, "big.bin")
	if err := os.Truncate(filepath.Join(ws, "big.bin"), MaxBytes+1); err != nil {
		t.Fatal(err)
	}
	_, err := Stage(data, sel, "x")
	errContains(t, err, "exceeds the Sandbox staging byte budget of 1073741824 bytes")
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("failed staging left %v", n)
	}
}

func TestStageRefusals(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"a/f.txt": "f", "b.txt": "b"})
	// Serial subtests: they share ws, and "vanished root" renames b.txt and "payload
	// contains the data dir" creates a/data in it.
	t.Run("vanished root", func(t *testing.T) {
		data := t.TempDir()
		sel := mustValidate(t, ws, "b.txt")
		if err := os.Rename(filepath.Join(ws, "b.txt"), filepath.Join(ws, "b2.txt")); err != nil {
			t.Fatal(err)
		}
		defer os.Rename(filepath.Join(ws, "b2.txt"), filepath.Join(ws, "b.txt"))
		_, err := Stage(data, sel, "x")
		errContains(t, err, "payload path does not exist: b.txt")
		if n := bundles(t, data); len(n) != 0 {
			t.Fatalf("failed staging left %v", n)
		}
	})
	t.Run("empty selection", func(t *testing.T) {
		data := t.TempDir()
		_, err := Stage(data, &Selection{Workspace: ws, project: bind(t, ws)}, "x")
		errContains(t, err, "payload_paths is required")
		if n := bundles(t, data); len(n) != 0 {
			t.Fatalf("refusal left %v", n)
		}
	})
	t.Run("payload contains the data dir", func(t *testing.T) {
		data := filepath.Join(ws, "a", "data")
		defer os.RemoveAll(data)
		_, err := Stage(data, mustValidate(t, ws, "a"), "x")
		errContains(t, err, "contains the Sandbox staging folder")
		if n := bundles(t, data); len(n) != 0 {
			t.Fatalf("refusal left %v", n)
		}
	})
	t.Run("no data dir", func(t *testing.T) {
		_, err := Stage("", mustValidate(t, ws, "a"), "x")
		errContains(t, err, "no data directory")
	})
}

// TestStageFreshBundles: every Stage gets its own bundle.
func TestStageFreshBundles(t *testing.T) {
	t.Parallel()
	ws, data := t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"f": "f"})
	sel := mustValidate(t, ws, "f")
	a, err := Stage(data, sel, "x")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Stage(data, sel, "x")
	if err != nil {
		t.Fatal(err)
	}
	if a.Dir == b.Dir {
		t.Fatal("two stagings shared a bundle")
	}
	if n := bundles(t, data); len(n) != 2 {
		t.Fatalf("bundles = %v", n)
	}
}
