package envinspect

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
)

// TestEnvInspectPolicy: the result names the policy in force, its hash and its
// error, and says nothing when there is none.
func TestEnvInspectPolicy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		st   policy.State
		want any
	}{
		{"none", policy.State{}, nil},
		{"in force", policy.State{Source: "/etc/windows-dev-agent/policy.json", SHA256: "ab", Policy: &policy.Policy{}},
			map[string]any{"source": "/etc/windows-dev-agent/policy.json", "sha256": "ab"}},
		{"broken", policy.State{Source: `HKLM\SOFTWARE\Policies\WindowsDevAgent`, SHA256: "cd", Err: errors.New("value Policy: line 1, column 2: x")},
			map[string]any{"source": `HKLM\SOFTWARE\Policies\WindowsDevAgent`, "sha256": "cd", "error": "value Policy: line 1, column 2: x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := 0
			d := DefaultDeps()
			d.Discover = func(ctx context.Context, o discovery.Options, force bool) discovery.Result {
				o.Producers = []discovery.Producer{fakeProducer{&runs}}
				return discovery.Discover(ctx, o, force)
			}
			st := tc.st
			d.Policy = func() *policy.State { return &st }
			m := call(t, New(d), &tools.Env{DataDir: t.TempDir()}, nil)
			got, present := m["policy"]
			if tc.want == nil && present {
				t.Fatalf("policy %v present without a policy", got)
			}
			if tc.want != nil {
				if d := cmp.Diff(tc.want, got); d != "" {
					t.Errorf("policy (-want +got):\n%s", d)
				}
			}
		})
	}
}
