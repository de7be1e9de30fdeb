//go:build !windows

package capabilityrun_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// TestProjectTaskPlanThenExecute (issue 23 §1): an npm script and a make target,
// planned and executed through the pipeline with fake runners on PATH; then the
// script is edited between plan and execution, and the reviewed call answers
// stale_plan without running.
func TestProjectTaskPlanThenExecute(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	for _, name := range []string{"npm", "make"} {
		script := "#!/bin/sh\necho \"" + name + " $*\"\npwd\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := env(t, bin, "")
	project, _ := filepath.EvalSymlinks(e.ProjectDir)
	writeFiles(t, e, map[string]string{
		"package.json": "{\n  \"scripts\": {\n    \"dev\": \"vite\"\n  }\n}\n",
		"Makefile":     "test:\n\tgo test ./...\n",
	})
	for _, c := range []struct{ id, stdout string }{
		{"npm:dev", "npm run dev\n" + project + "\n"},
		{"make:test", "make test\n" + project + "\n"},
	} {
		plan := call(t, e, tools.Args{"capability": c.id})
		ea, _ := plan["execute_arguments"].(map[string]any)
		if plan["status"] != "planned" || ea == nil {
			t.Fatalf("%s plan %v", c.id, plan)
		}
		run := call(t, e, tools.Args(ea))
		if run["status"] != "completed" || run["execution_started"] != true || run["stdout"] != c.stdout ||
			run["definition_sha256"] != ea["expected_definition_sha256"] {
			t.Fatalf("%s run %v", c.id, run)
		}
	}

	// The script edited after the review: the same executing call is stale.
	plan := call(t, e, tools.Args{"capability": "npm:dev"})
	ea := plan["execute_arguments"].(map[string]any)
	writeFiles(t, e, map[string]string{"package.json": "{\n  \"scripts\": {\n    \"dev\": \"touch ran\"\n  }\n}\n"})
	stale := call(t, e, tools.Args(ea))
	if stale["status"] != "stale_plan" || stale["execution_started"] != false || stale["definition_sha256"] == ea["expected_definition_sha256"] {
		t.Fatalf("edited script: %v", stale)
	}
	if _, ok := stale["stdout"]; ok {
		t.Errorf("a stale plan carries a receipt: %v", stale)
	}
}
