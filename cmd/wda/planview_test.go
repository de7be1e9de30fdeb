package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPlanShowsTheEvidence: the plan view says why the selected candidate won and
// shows each candidate's evidence, so test-go next to test-cargo no longer looks like a
// tie (issue 25 §2: "test-go 0/1/0 next to test-cargo 0/1/0"); --explain shows every
// candidate with whether it performs the task's operation.
func TestPlanShowsTheEvidence(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.project, "go.mod"), []byte("module example.com/m\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	goTool := "go"
	if filepath.Separator == '\\' {
		goTool = "go.exe"
	}
	if err := os.WriteFile(filepath.Join(f.bin, goTool), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := f.run(t, noTTY, nil, "plan", "run", "the", "tests")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^Why: +test-go ranks above test-cargo because the project shows it \(go\.mod\)\.$`),
		regexp.MustCompile(`(?m)^  CANDIDATE +NAMED BY +PROJECT +WORDS +DESCRIPTION$`),
		regexp.MustCompile(`(?m)^  test-go +- +go\.mod +test +-$`),
		regexp.MustCompile(`(?m)^  test-cargo +- +- +test +-$`),
		regexp.MustCompile(`(?m)^Next: wda run test-go$`),
	} {
		if !want.MatchString(r.stdout) {
			t.Errorf("no %s in:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "build-go") {
		t.Errorf("a candidate without evidence for the task is shown without --explain:\n%s", r.stdout)
	}
	e := f.run(t, noTTY, nil, "plan", "run", "the", "tests", "--explain")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^  CANDIDATE +OPERATION +NAMED BY +PROJECT +WORDS +DESCRIPTION +CLASS +TOOL$`),
		regexp.MustCompile(`(?m)^  build-go +no +- +- +- +- +reversible +\S+$`),
	} {
		if !want.MatchString(e.stdout) {
			t.Errorf("--explain: no %s in:\n%s", want, e.stdout)
		}
	}
}
