//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeWingetInstall answers install as WinGet does: "Found NAME [ID]" for the one
// package it knows, then a failed installer; "No package found" for any other id.
const fakeWingetInstall = `#!/bin/sh
for a in "$@"; do if [ "$a" = Git.Git ]; then
echo 'Found Git [Git.Git] Version 2.45.1'
echo 'Installer failed with exit code: 1603'
exit 1
fi; done
echo 'No package found matching input criteria.'
exit 1
`

// TestLogsSayWhichAndWhy: wda logs --filter failures says which run failed or was
// refused — the capability when it is one of the catalog in force, the package id
// when the package manager printed it — and why: the argument and rule, the blocked
// class (issue 25 §2). A capability that is not in the catalog and a package id the
// manager did not print are never shown: they are the caller's free text.
func TestLogsSayWhichAndWhy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	goPath := f.tool(t, "go", fakeGo)
	f.tool(t, "winget", fakeWingetInstall)
	cat := filepath.Join(f.home, "capabilities.yaml")
	if err := os.WriteFile(cat, []byte("test-go:\n  description: Go tests.\n  safety: reversible\n  tools:\n    - name: go\n      argv: [go, test, ./...]\n"+
		"wipe-go:\n  description: Wipe the Go caches.\n  safety: forbidden\n  tools:\n    - name: go\n      argv: [go, clean, -cache]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f.env["WINDOWS_DEV_AGENT_CATALOG"] = cat
	// A project task is named like a catalog entry when the project declares it
	// (issue 23); an undeclared one is the caller's text.
	if err := os.WriteFile(filepath.Join(f.project, "package.json"), []byte(`{"scripts": {"lint": "eslint ."}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f.tool(t, "npm", "#!/bin/sh\nexit 0\n")
	steps := [][]string{
		{"call", "capability_run", `{"capability":"npm:lint","execute":true}`},
		{"call", "capability_run", `{"capability":"npm:no-such-secret-y","execute":true}`},
		{"run", "test-go", "--cwd", "/", "--yes"},
		{"call", "capability_run", `{"capability":"test-go","execute":true}`},
		{"run", "no-such-secret-x", "--yes"},
		{"call", "capability_run", `{"capability":"wipe-go","execute":true}`},
		{"install", "Git.Git", "--yes"},
		{"install", "Not.Secret.Thing", "--yes"},
		{"call", "logs_query", `{"last_n":500}`},
	}
	for _, s := range steps {
		f.run(t, noTTY, nil, s...)
	}
	r := f.run(t, terminal, &swapOnRead{t: t, path: goPath}, "run", "test-go")
	if r.code != exitNotDone {
		t.Fatalf("the swapped executable: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = f.run(t, noTTY, nil, "logs", "--filter", "failures", "--last", "50")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := []string{
		"capability_run  tools/call  outcome=not_executed status=invalid_input class=approval-required capability=npm:lint refused=expected_definition_sha256:required",
		"capability_run  tools/call  outcome=not_executed status=unknown_capability class=approval-required",
		"capability_run  tools/call  outcome=not_executed status=invalid_input class=approval-required capability=test-go refused=cwd:outside_project",
		"capability_run  tools/call  outcome=not_executed status=invalid_input class=reversible capability=test-go refused=expected_executable:required",
		"capability_run  tools/call  outcome=not_executed status=unknown_capability class=read-only",
		"capability_run  tools/call  outcome=not_executed status=blocked class=forbidden capability=wipe-go refused=forbidden",
		"package_install  tools/call  outcome=failed status=failed class=approval-required package=Git.Git",
		"package_install  tools/call  outcome=failed status=failed class=approval-required",
		"logs_query  tools/call  outcome=not_executed status=invalid_input class=approval-required refused=last_n:range",
		"capability_run  tools/call  outcome=not_executed status=stale_plan class=reversible capability=test-go refused=expected_executable_identity_sha256:changed",
	}
	if len(lines) != len(want)+1 {
		t.Fatalf("%d lines, want %d events and the count:\n%s", len(lines), len(want), r.stdout)
	}
	for i, w := range want {
		_, got, _ := strings.Cut(lines[i], "  ") // after the time stamp
		if got != w {
			t.Errorf("event %d:\n got %s\nwant %s", i+1, got, w)
		}
	}
	if strings.Contains(r.stdout, "Secret") || strings.Contains(r.stdout, "secret") {
		t.Errorf("a caller's free text reached the log:\n%s", r.stdout)
	}
}
