package main

import (
	"errors"
	"testing"

	"github.com/windows-dev-agent/wda/internal/policy"
)

// TestDoctorPolicy: doctor says a policy is in force, where from and its hash, and
// counts one that cannot be used as a problem.
func TestDoctorPolicy(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		st       policy.State
		want     check
		problems int
	}{
		{policy.State{}, check{Name: "policy", State: checkOK, Detail: "no managed policy"}, 0},
		{policy.State{Source: `HKLM\SOFTWARE\Policies\WindowsDevAgent`, SHA256: "ab", Policy: &policy.Policy{}},
			check{Name: "policy", State: checkInfo, Detail: `a managed policy is in force: HKLM\SOFTWARE\Policies\WindowsDevAgent (sha256 ab)`}, 0},
		{policy.State{Source: "/etc/windows-dev-agent/policy.json", SHA256: "cd", Err: errors.New("/etc/windows-dev-agent/policy.json: line 2, column 5: x")},
			check{Name: "policy", State: checkFail,
				Detail: "the managed policy (sha256 cd) cannot be used, so calls that would execute are refused: /etc/windows-dev-agent/policy.json: line 2, column 5: x",
				Fix:    "the policy's administrator corrects it (docs/policy.md describes the schema)"}, 1},
	} {
		st := tc.st
		h := newHostLayout(t)
		de := h.env()
		de.policy = func() *policy.State { return &st }
		rep := de.diagnose(t.Context(), "gemini")
		if rep.Policy != tc.want {
			t.Errorf("policy check %+v\nwant %+v", rep.Policy, tc.want)
		}
		if tc.problems > 0 && rep.Problems < tc.problems {
			t.Errorf("problems %d, want the broken policy counted", rep.Problems)
		}
	}
}
