//go:build !windows

package ecosystemscan

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// TestRealFakeExecutables runs the real resolver and runner against `code` and
// `winget` shell scripts found through a PATH that exists only in the per-call env.
func TestRealFakeExecutables(t *testing.T) {
	t.Parallel()
	root := testkit.TempDir(t)
	bin := testkit.TempDir(t)
	home := testkit.TempDir(t)
	script := func(name, body string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script("code", `[ "$1" = "--list-extensions" ] || exit 3
printf 'github.copilot-chat\ngolang.go\n'
`)
	// 80 KiB of output: more than the 64 KiB cap, so the list must not be promoted.
	script("winget", `[ "$*" = "list --source winget --disable-interactivity" ] || exit 4
i=0; while [ $i -lt 2000 ]; do echo "Package.Number.$i   Some.Identifier.$i   1.2.3.4   winget"; i=$((i+1)); done
`)
	env := envFor(root, "claude", map[string]string{"PATH": bin, "HOME": home})
	env.Project = testkit.Project(t, root) // as the pipeline binds it
	out, err := New(DefaultDeps()).Call(context.Background(), env, map[string]any{"include_host": true, "include_packages": true})
	if err != nil {
		t.Fatal(err)
	}
	o := out.(Out)
	if !o.ExecutionStarted || o.Status.Status != "ok" {
		t.Fatalf("status %+v", o.Status)
	}
	if diff := cmp.Diff([]string{"github.copilot-chat", "golang.go"}, o.Inventory.VSCode.Installed); diff != "" {
		t.Errorf("installed (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"github.copilot-chat"}, o.Inventory.OverlapHints); diff != "" {
		t.Errorf("overlap (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{WarnWingetIncomplete}, o.Inventory.Warnings); diff != "" {
		t.Errorf("warnings (-want +got)\n%s", diff)
	}
	if len(o.Inventory.Packages.Items) != 0 {
		t.Errorf("truncated winget output promoted: %d items", len(o.Inventory.Packages.Items))
	}

	// A short, whole winget output is kept.
	script("winget", `echo "Name  Id  Version"; echo "A  a.a  1"`)
	out, _ = New(DefaultDeps()).Call(context.Background(), env, map[string]any{"include_host": true, "include_packages": true})
	if got := out.(Out).Inventory.Packages.Items; strings.Join(got, "|") != "Name  Id  Version|A  a.a  1" {
		t.Errorf("items = %q", got)
	}
}
