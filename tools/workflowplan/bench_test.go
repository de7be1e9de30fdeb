package workflowplan_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/projecttasks"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/workflowplan"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/projectscan"
	"github.com/windows-dev-agent/wda/tools/workflowplan/internal/routing"
)

// BenchmarkRouteWithEvidence is one workflow_plan's own work without the pipeline: the
// project scan of a Node project (one listing, one package.json read) and the routing
// over the shipped catalog.
func BenchmarkRouteWithEvidence(b *testing.B) {
	_, root, cat, wanted := benchProject(b, "node")
	avail := func(string) (string, bool) { return "x", true }
	b.ResetTimer()
	for b.Loop() {
		res := projectscan.Scan(root, wanted)
		r := routing.Plan(cat, routing.Request{Task: "run the tests", Available: avail,
			Project: &routing.ProjectEvidence{Inspected: true, Found: res.Found, Files: res.Files, Read: res.Read}})
		if r.SelectionStatus != routing.Selected {
			b.Fatal(r.SelectionStatus)
		}
	}
	_ = workflowplan.DefaultDeps
}

// BenchmarkRouteWithTasks is BenchmarkRouteWithEvidence plus what project tasks add:
// reading the project's package.json scripts and routing among them (node-npm's six
// scripts), and the compact result's encoding.
func BenchmarkRouteWithTasks(b *testing.B) {
	dir, root, cat, wanted := benchProject(b, "node-npm")
	project := tools.NewProject(dir, root, nil)
	avail := func(string) (string, bool) { return "x", true }
	b.ResetTimer()
	for b.Loop() {
		res := projectscan.Scan(root, wanted)
		set, _ := projecttasks.Read(project, projecttasks.Options{})
		var tasks []routing.ProjectTask
		for _, t := range set.Tasks {
			tasks = append(tasks, routing.ProjectTask{ID: t.ID, Source: string(t.Source), Name: t.Name, Argv: t.Argv,
				Definition: t.Definition, File: t.File, Available: true})
		}
		r := routing.Plan(cat, routing.Request{Task: "start the dev server", Available: avail, Tasks: tasks,
			Project: &routing.ProjectEvidence{Inspected: true, Found: res.Found, Files: res.Files, Read: res.Read}})
		if r.SelectionStatus != routing.Selected {
			b.Fatal(r.SelectionStatus)
		}
		r.SetCompact()
		if _, err := json.Marshal(r); err != nil {
			b.Fatal(err)
		}
	}
}

// benchProject writes the files of projects[name] (a name ending in "/" is a
// directory, which writing its files makes) and opens it, with the shipped catalog and
// every project_files entry it looks for, as workflow_plan's evidence does. The root
// is closed when b ends.
func benchProject(b *testing.B, name string) (string, *os.Root, *catalog.Catalog, []string) {
	dir := testkit.TempDir(b)
	for f, content := range projects[name] {
		if f[len(f)-1] == '/' {
			continue
		}
		testkit.WriteFile(b, filepath.Join(dir, f), content)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { root.Close() })
	cat, err := catalog.Shipped()
	if err != nil {
		b.Fatal(err)
	}
	var wanted []string
	for _, id := range cat.IDs() {
		cp, _ := cat.Get(id)
		wanted = append(wanted, cp.ProjectFiles...)
	}
	return dir, root, cat, wanted
}
