package capabilityrun_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

// writeFiles writes files into the project directory of e.
func writeFiles(t *testing.T, e world, files map[string]string) {
	t.Helper()
	testkit.Tree(t, e.ProjectDir, files, 0o644)
}

// TestProjectTaskClassified (issue 23 §1): the pipeline's class of a project task's
// execution is approval-required at least (the declaration cannot read the project),
// forbidden when the extra arguments are; a plan is read-only.
func TestProjectTaskClassified(t *testing.T) {
	t.Parallel()
	tool := env(t, "", "").tool
	for _, c := range []struct {
		args tools.Args
		want tools.Class
	}{
		{tools.Args{"capability": "npm:dev"}, tools.ReadOnly},
		{tools.Args{"capability": "npm:dev", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "make:test", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "vscode:Build Release", "execute": true}, tools.ApprovalRequired},
		{tools.Args{"capability": "npm:dev", "execute": true, "extra_args": []any{"/c", "format", "D:"}}, tools.Forbidden},
	} {
		if got := tool.Classify(c.args); got != c.want {
			t.Errorf("Classify(%v) = %s, want %s", c.args, got, c.want)
		}
	}
}

// TestProjectTaskPlan: a plan of an npm script through the pipeline, with a fake npm on
// PATH: the argv, the definition identity and what runs, and execute_arguments echoing
// both identities.
func TestProjectTaskPlan(t *testing.T) {
	t.Parallel()
	dir, path := toolDir(t, "npm", "#!/bin/sh\n")
	e := env(t, dir, "")
	writeFiles(t, e, map[string]string{"package.json": `{"scripts": {"dev": "vite", "lint": "eslint .", "broken": 1}}`})
	real, _ := filepath.EvalSymlinks(path)
	m := call(t, e, tools.Args{"capability": "npm:dev"})
	ea, _ := m["execute_arguments"].(map[string]any)
	sha, _ := ea["expected_definition_sha256"].(string)
	if m["status"] != "planned" || ea["expected_executable"] != real || m["safety_class"] != "approval-required" || len(sha) != 64 ||
		m["task_file"] != "package.json" || m["task_line"] != float64(1) || m["task_cwd"] != "." || m["runs_complete"] != true {
		t.Fatalf("plan %v", m)
	}
	if argv := m["argv"].([]any); len(argv) != 3 || argv[0] != real || argv[1] != "run" || argv[2] != "dev" {
		t.Errorf("argv %v", argv)
	}
	if runs := m["runs"].([]any); len(runs) != 1 || runs[0].(map[string]any)["text"] != "vite" {
		t.Errorf("runs %v", runs)
	}
	if w := m["warnings"].([]any); len(w) != 1 || w[0].(map[string]any)["rule"] != "shape" {
		t.Errorf("warnings %v", m["warnings"])
	}
	if ea["execute"] != true || ea["capability"] != "npm:dev" {
		t.Errorf("execute_arguments %v", ea)
	}
	// The script the catalog's lint-npm runs, by the argv lint-npm has: its class.
	if m := call(t, e, tools.Args{"capability": "npm:lint"}); m["safety_class"] != "reversible" || m["matches_capability"] != "lint-npm" {
		t.Errorf("npm:lint %v", m)
	}
	// A catalog plan carries no definition to echo.
	if ea, _ := call(t, env(t, dir, "x: {description: d, tools: [{name: npm, argv: [npm, ci]}]}"), tools.Args{"capability": "x"})["execute_arguments"].(map[string]any); ea == nil {
		t.Errorf("catalog plan without execute_arguments")
	} else if _, ok := ea["expected_definition_sha256"]; ok {
		t.Errorf("catalog execute_arguments %v", ea)
	}
}

// TestProjectTaskRefusals: an unknown task lists the project's tasks; a forbidden script
// plans as forbidden (with the reason, without an executing call) and is blocked; an
// execution without the definition echo is refused naming the field.
func TestProjectTaskRefusals(t *testing.T) {
	t.Parallel()
	marker := filepath.Join(t.TempDir(), "ran")
	dir, _ := toolDir(t, "npm", "#!/bin/sh\ntouch '"+marker+"'\n")
	e := env(t, dir, "")
	writeFiles(t, e, map[string]string{"package.json": `{"scripts": {"dev": "vite", "wipe": "diskpart /s x"}}`})

	m := call(t, e, tools.Args{"capability": "npm:nope"})
	if m["status"] != "unknown_capability" || m["error"] != "Unknown capability: npm:nope" || m["execution_started"] != false {
		t.Fatalf("unknown: %v", m)
	}
	if pt, _ := m["project_tasks"].([]any); len(pt) != 2 || pt[0] != "npm:dev" || pt[1] != "npm:wipe" || len(m["available"].([]any)) == 0 {
		t.Errorf("unknown lists %v and %v", m["project_tasks"], m["available"])
	}

	plan := call(t, e, tools.Args{"capability": "npm:wipe"})
	if plan["status"] != "planned" || plan["safety_class"] != "forbidden" || len(plan["definition_sha256"].(string)) != 64 ||
		plan["executable"] == nil || plan["execute_arguments"] != nil || !strings.Contains(plan["safety_reason"].(string), "diskpart") {
		t.Fatalf("forbidden plan %v", plan)
	}
	exec := tools.Args{"capability": "npm:wipe", "execute": true, "expected_executable": plan["executable"],
		"expected_executable_identity_kind":   plan["executable_identity_kind"],
		"expected_executable_identity_sha256": plan["executable_identity_sha256"],
		"expected_definition_sha256":          plan["definition_sha256"]}
	if m := call(t, e, exec); m["status"] != "blocked" || m["execution_started"] != false {
		t.Fatalf("forbidden execution %v", m)
	}

	dev := call(t, e, tools.Args{"capability": "npm:dev"})
	ea := dev["execute_arguments"].(map[string]any)
	delete(ea, "expected_definition_sha256")
	if m := call(t, e, tools.Args(ea)); m["status"] != "invalid_input" || !strings.Contains(m["error"].(string), "expected_definition_sha256") {
		t.Fatalf("no definition echo: %v", m)
	}
	ea["expected_definition_sha256"] = "xyz"
	if m := call(t, e, tools.Args(ea)); m["status"] != "invalid_input" || !strings.Contains(m["error"].(string), "expected_definition_sha256") {
		t.Fatalf("malformed definition echo: %v", m)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a refused task ran")
	}
}

// TestShippedIDsAreNotProjectTaskIDs: no shipped capability has an id of a project
// task's form, which capability_run would read from the project instead.
func TestShippedIDsAreNotProjectTaskIDs(t *testing.T) {
	t.Parallel()
	shipped, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range shipped.IDs() {
		if tools.IsProjectTaskID(id) || strings.Contains(id, ":") {
			t.Errorf("shipped capability %q has a project task's form", id)
		}
	}
}

// TestCatalogScriptClassified: a catalog capability that runs a project's Node script
// (test-npm, lint-npm, build-npm) is forbidden when the script, or its pre-script, is a
// command the shell classifier forbids: the same script is blocked whether it is asked
// for as npm:test or as test-npm. A harmless script keeps the reviewed class.
func TestCatalogScriptClassified(t *testing.T) {
	t.Parallel()
	dir, _ := toolDir(t, "npm", "#!/bin/sh\n")
	for _, c := range []struct {
		name, pkg, capability string
		want                  string
	}{
		{"harmless test script", `{"scripts": {"test": "vitest run"}}`, "test-npm", "reversible"},
		{"forbidden test script", `{"scripts": {"test": "format C: /q"}}`, "test-npm", "forbidden"},
		{"forbidden pretest", `{"scripts": {"pretest": "diskpart /s wipe.txt", "test": "vitest"}}`, "test-npm", "forbidden"},
		{"forbidden lint script", `{"scripts": {"lint": "rm -rf /c/Win{d,}ows"}}`, "lint-npm", "forbidden"},
		{"other script forbidden", `{"scripts": {"build": "bcdedit /deletevalue safeboot", "test": "vitest"}}`, "test-npm", "reversible"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := env(t, dir, "")
			writeFiles(t, e, map[string]string{"package.json": c.pkg})
			m := call(t, e, tools.Args{"capability": c.capability})
			if m["safety_class"] != c.want {
				t.Fatalf("safety_class %v, want %s: %v", m["safety_class"], c.want, m)
			}
			if c.want == "forbidden" {
				if m["execute_arguments"] != nil || !strings.Contains(m["safety_reason"].(string), "forbids") {
					t.Errorf("a forbidden plan offers execution or no reason: %v", m)
				}
				x := call(t, e, tools.Args{"capability": c.capability, "execute": true, "expected_executable": m["executable"],
					"expected_executable_identity_kind":   m["executable_identity_kind"],
					"expected_executable_identity_sha256": m["executable_identity_sha256"]})
				if x["status"] != "blocked" || x["execution_started"] == true {
					t.Errorf("execute: %v", x)
				}
			}
		})
	}
}
