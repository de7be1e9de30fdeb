package routing

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// FuzzTaskPlan routes an arbitrary task in a project whose own tasks have arbitrary
// names (a name is the repository's, so untrusted) and checks what routing promises
// of project tasks (docs/tools/workflow_plan.md, "Project tasks"): every candidate
// listed once, a task's discriminating matches said by the task (or the meaning of a
// conventional name), a selected project task planned approval-required with
// capability_run, and a compact view with no zero score and no empty list.
func FuzzTaskPlan(f *testing.F) {
	for _, s := range [][2]string{{"start the dev server", "dev"}, {"make test", "test"}, {"run in watch mode", "dev"},
		{"npm run build:prod", "build:prod"}, {"format the code", "fmt"}, {"run the Build Release task", "Build Release"},
		{"just just just", "just"}, {"start start", "start"}, {"run", "run"}, {"pnpm test", "test"}, {"lint", "lint"}} {
		f.Add(s[0], s[1])
	}
	cat := shippedCatalog(f)
	f.Fuzz(func(t *testing.T, task, name string) {
		if name == "" || strings.ContainsAny(name, "\x00\n") || len(name) > 128 {
			return // the reader never offers such a name (docs/project-tasks.md, "Names")
		}
		tasks := []ProjectTask{
			{ID: "npm:" + name, Source: "npm", Name: name, Argv: []string{"pnpm", "run", name}, Definition: []string{"vite"}, File: "package.json", Available: true},
			{ID: "make:" + name, Source: "make", Name: name, Argv: []string{"make", name}, Definition: []string{"go test ./..."}, File: "Makefile"},
			{ID: "vscode:" + name, Source: "vscode", Name: name, Argv: []string{"sh", "-c", "x"}, File: ".vscode/tasks.json", Available: true},
		}
		if name != "start" { // ids are unique within a project's set
			tasks = append(tasks, ProjectTask{ID: "npm:start", Source: "npm", Name: "start", Argv: []string{"pnpm", "run", "start"},
				Definition: []string{"node s.js"}, File: "package.json", Available: true})
		}
		r := Plan(cat, Request{Task: task, Available: func(string) (string, bool) { return "tool", true },
			Project: &ProjectEvidence{Inspected: true, Found: []string{"go.mod", "package.json#scripts.test"}}, Tasks: tasks})
		seen := map[string]bool{}
		said := strings.ToLower(task)
		for _, c := range r.CandidateCapabilities {
			if seen[c.Capability] {
				t.Fatalf("%q: %s listed twice", task, c.Capability)
			}
			seen[c.Capability] = true
			if c.task == nil {
				continue
			}
			for _, m := range c.DiscriminatingMatches {
				if !strings.Contains(said, m) && !slices.Contains([]string{"start", "restore", "csharp", "fsharp", "dotnet", "format", "server", "launch", "development", "watch"}, m) {
					t.Fatalf("%q: %s matched %q, which the task does not say", task, c.Capability, m)
				}
			}
			if c.ProjectScore > projectEntry || c.ProjectScore > 0 && len(c.nameMatches) == 0 && !c.quoted {
				t.Fatalf("%q: %s project score %d without naming it", task, c.Capability, c.ProjectScore)
			}
		}
		if r.SelectionStatus == Selected && r.SelectedCandidate.task != nil {
			nt := r.NextTool
			if nt.Name != ToolCapabilityRun || nt.Arguments["capability"] != r.SelectedCandidate.Capability ||
				nt.Class != tools.ApprovalRequired || r.Phases[2].SafetyClass != tools.ApprovalRequired {
				t.Fatalf("%q: selected task %s with next tool %+v", task, r.SelectedCandidate.Capability, nt)
			}
		}
		r.SetCompact()
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Cands []map[string]any `json:"candidate_capabilities"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, c := range m.Cands {
			for k, v := range c {
				if v == float64(0) || v == nil || v == "" {
					t.Fatalf("%q: compact %v has an empty %s", task, c["capability"], k)
				}
				if l, ok := v.([]any); ok && len(l) == 0 {
					t.Fatalf("%q: compact %v has an empty %s", task, c["capability"], k)
				}
			}
		}
	})
}
