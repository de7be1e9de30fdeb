//go:build !windows

package capabilityrun_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/tools"
)

// TestPlanThenExecute runs the shipped test-go capability's shape end to end through
// the tool: plan, echo, run in the resolved cwd; then a changed executable is stale.
func TestPlanThenExecute(t *testing.T) {
	t.Parallel()
	dir, path := toolDir(t, "go", "#!/bin/sh\necho \"args: $*\"\npwd\n")
	e := env(t, dir, "")
	project, _ := filepath.EvalSymlinks(e.ProjectDir)
	sub := filepath.Join(project, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	plan := call(t, e, tools.Args{"capability": "test-go", "cwd": sub})
	if plan["status"] != "planned" {
		t.Fatalf("plan %v", plan)
	}
	// execute_arguments is the executing call, ready made: passed back unchanged it
	// runs the plan; the identity is there only (the timeout is the default's again).
	ea, _ := plan["execute_arguments"].(map[string]any)
	real, _ := filepath.EvalSymlinks(path)
	sha, _ := ea["expected_executable_identity_sha256"].(string)
	want := map[string]any{"capability": "test-go", "cwd": sub, "execute": true,
		"expected_executable": real, "expected_executable_identity_kind": "file", "expected_executable_identity_sha256": sha}
	if diff := cmp.Diff(want, ea); diff != "" || len(sha) != 64 {
		t.Fatalf("execute_arguments (-want +got):\n%s", diff)
	}
	if run := call(t, e, tools.Args(ea)); run["status"] != "completed" || run["stdout"] != "args: test ./...\n"+sub+"\n" {
		t.Fatalf("run with execute_arguments %v", run)
	}
	echo := tools.Args{"capability": "test-go", "cwd": sub, "execute": true, "timeout_seconds": 30,
		"expected_executable": real, "expected_executable_identity_kind": "file", "expected_executable_identity_sha256": sha}
	run := call(t, e, echo)
	if run["status"] != "completed" || run["execution_started"] != true || run["succeeded"] != true ||
		run["returncode"] != float64(0) || run["stdout"] != "args: test ./...\n"+sub+"\n" {
		t.Fatalf("run %v", run)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\ntouch "+filepath.Join(sub, "ran")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range []tools.Args{echo, tools.Args(ea)} {
		stale := call(t, e, args)
		if stale["status"] != "stale_plan" || stale["execution_started"] != false {
			t.Fatalf("stale %v", stale)
		}
	}
	if _, err := os.Stat(filepath.Join(sub, "ran")); !os.IsNotExist(err) {
		t.Fatal("a changed executable ran")
	}
}
