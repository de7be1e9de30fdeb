package envinspect

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

// fixed is the tool answering with snapshot s, as from the cache.
func fixed(s discovery.Snapshot) tools.Tool {
	d := DefaultDeps()
	d.Discover = func(context.Context, discovery.Options, bool) discovery.Result {
		return discovery.Result{Snapshot: s, CacheHit: true}
	}
	return New(d)
}

func readSnapshot(t *testing.T, name string) discovery.Snapshot {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := discovery.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// leftOut are the keys the summary never carries (docs/tools/env_inspect.md,
// "Summary"), as paths in the snapshot.
var leftOut = []string{"schema_version", "success", "probe_states", "available_package_managers", "available_runtimes",
	"available_editors", "available_isolation_options", "runtimes/python/version", "runtimes/python/versions",
	"runtimes/golang/versions", "git/version", "virtualization/wsl_version", "development_tools/git_available",
	"development_tools/vscode_available", "development_tools/visual_studio_available"}

// TestSummary: by default the snapshot is its summary: none of the keys that restate
// another or are never filled, every key it keeps equal to the canonical snapshot's
// (detail "full", unchanged), and a golden of a Windows workstation's. A summary is at
// most 1,100 characters for it (issue 24, "What the model pays").
func TestSummary(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		snap discovery.Snapshot
		// present and absent are further paths the summary must or must not have.
		present, absent []string
	}{
		{"workstation", readSnapshot(t, "workstation.json"), []string{"virtualization/dev_drives"},
			[]string{"errors", "virtualization/windows_sandbox_state", "virtualization/hyper_v_state", "virtualization/dev_drive_state", "virtualization/dev_drive_inventory_state", "system/os_build"}},
		{"degraded", readSnapshot(t, "degraded.json"), []string{"errors", "virtualization/dev_drive_inventory_state", "virtualization/hyper_v_state", "virtualization/dev_drives"},
			[]string{"virtualization/wsl_distros", "virtualization/windows_sandbox_state"}},
		{"fallback", discovery.Fallback(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "Unexpected discovery failure: x"),
			[]string{"errors", "virtualization/dev_drives"},
			[]string{"virtualization/hyper_v_state", "virtualization/dev_drive_inventory_state", "virtualization/wsl_distros"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tool := fixed(c.snap)
			sum, text := mcptest.Call(t, tool, &tools.Env{}, tools.Args{})
			full := call(t, tool, &tools.Env{}, tools.Args{"detail": "full"})
			if sum["status"] != full["status"] || sum["execution_started"] != full["execution_started"] {
				t.Fatalf("summary %v and full %v disagree on status", sum, full)
			}
			want, _ := json.Marshal(c.snap)
			var canon any
			_ = json.Unmarshal(want, &canon)
			if d := cmp.Diff(canon, full["snapshot"]); d != "" {
				t.Fatalf("detail full is not the canonical snapshot (-canonical +got):\n%s", d)
			}
			s := sum["snapshot"].(map[string]any)
			for _, p := range append(append([]string{}, leftOut...), c.absent...) {
				if _, ok := at(s, p); ok {
					t.Errorf("summary has %s", p)
				}
			}
			for _, p := range c.present {
				if _, ok := at(s, p); !ok {
					t.Errorf("summary lacks %s", p)
				}
			}
			walkLeaves(s, "", func(p string, v any) {
				if w, ok := at(full["snapshot"].(map[string]any), p); !ok || !cmp.Equal(v, w) {
					t.Errorf("summary %s = %v, canonical %v", p, v, w)
				}
			})
			if c.name == "workstation" {
				if n := len(text); n > 1100 {
					t.Errorf("summary is %d characters, budget 1100", n)
				}
				testkit.Golden(t, filepath.Join("testdata", "summary.golden.json"), append(text, '\n'), *update)
			}
		})
	}
}

// at is the value at the slash-separated path p of m.
func at(m map[string]any, p string) (any, bool) {
	var v any = m
	for _, k := range strings.Split(p, "/") {
		o, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = o[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// walkLeaves calls f on every value of m that is not an object, with its path.
func walkLeaves(m map[string]any, prefix string, f func(string, any)) {
	for k, v := range m {
		p := k
		if prefix != "" {
			p = prefix + "/" + k
		}
		if o, ok := v.(map[string]any); ok {
			walkLeaves(o, p, f)
			continue
		}
		f(p, v)
	}
}
