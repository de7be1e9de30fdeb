//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGo is a `go` that prints its arguments and working directory and leaves a mark
// in it, so a test sees whether and where it ran.
const fakeGo = "#!/bin/sh\nif [ \"$1\" = version ]; then echo 'go version go1.99.0 fake/arch'; exit 0; fi\necho \"fake go: $*\"\npwd\ntouch ran-go\n"

const fakeGit = "#!/bin/sh\necho 'git version 2.99.0.fake'\n"

func (f *fixture) tool(t *testing.T, name, script string) string {
	t.Helper()
	p := filepath.Join(f.bin, name)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *fixture) ran() bool {
	_, err := os.Stat(filepath.Join(f.project, "ran-go"))
	return err == nil
}

var terminal = ttyInfo{interactive: true, width: 80}

// TestGoldenRun: plan, confirm, run through the real tool and pipeline, with a fake go
// on PATH.
func TestGoldenRun(t *testing.T) {
	cases := []struct {
		name  string
		tty   ttyInfo
		stdin string
		args  []string
		ran   bool
	}{
		{"run-no-terminal", noTTY, "", []string{"run", "test-go"}, false},
		{"run-plan", noTTY, "", []string{"run", "test-go", "--plan", "--timeout", "30"}, false},
		{"run-yes", noTTY, "", []string{"run", "test-go", "--yes", "--", "-run", "Test X"}, true},
		{"run-json-yes", noTTY, "", []string{"run", "test-go", "--json", "-y"}, true},
		{"run-json-plan", noTTY, "", []string{"run", "test-go", "--json", "--plan"}, false},
		{"run-prompt-yes", terminal, "y\n", []string{"run", "test-go"}, true},
		{"run-prompt-no", terminal, "n\n", []string{"run", "test-go"}, false},
		{"run-prompt-eof", terminal, "", []string{"run", "test-go"}, false},
		{"run-outside-project", noTTY, "", []string{"run", "test-go", "--cwd", "/", "--yes"}, false},
		{"run-unavailable", noTTY, "", []string{"run", "create-pr", "--yes"}, false},
		{"run-unknown", noTTY, "", []string{"run", "no-such", "--yes"}, false},
		{"install-unavailable", noTTY, "", []string{"install", "Git.Git", "--yes"}, false},
		{"call-execute-without-echo", noTTY, "", []string{"call", "capability_run", `{"capability":"test-go","execute":true}`}, false},
		{"discover-vcs", noTTY, "", []string{"discover", "--category", "vcs"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.tool(t, "go", fakeGo)
			f.tool(t, "git", fakeGit)
			r := f.run(t, tc.tty, strings.NewReader(tc.stdin), tc.args...)
			golden(t, tc.name, tc.args, r)
			if f.ran() != tc.ran {
				t.Fatalf("ran = %v, want %v", f.ran(), tc.ran)
			}
		})
	}
}

// swapOnRead replaces the reviewed executable while the user reads the plan, then
// answers yes: the run must be refused as stale, not run the new program.
type swapOnRead struct {
	t    *testing.T
	path string
	done bool
}

func (s *swapOnRead) Read(p []byte) (int, error) {
	if s.done {
		return 0, io.EOF
	}
	s.done = true
	if err := os.WriteFile(s.path, []byte(fakeGo+"# changed\n"), 0o755); err != nil {
		s.t.Fatal(err)
	}
	return copy(p, "y\n"), nil
}

func TestRunCarriesReviewedIdentity(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	goPath := f.tool(t, "go", fakeGo)
	r := f.run(t, terminal, &swapOnRead{t: t, path: goPath}, "run", "test-go")
	golden(t, "run-stale", []string{"run", "test-go"}, r)
	if f.ran() || r.code != exitNotDone {
		t.Fatalf("a changed executable ran (or exit %d)", r.code)
	}
}

// TestEnvShowsVersions: the human env view carries versions from tool_discover, git's
// among them (the snapshot never runs tools, so its git.version is null by contract).
func TestEnvShowsVersions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.tool(t, "go", fakeGo)
	f.tool(t, "git", fakeGit)
	r := f.run(t, noTTY, nil, "env")
	for _, want := range []string{"Runtimes", "Go       yes  go version go1.99.0 fake/arch  $BIN/go",
		"git  yes  git version 2.99.0.fake  $BIN/git", "Editors", "Package managers", "Isolation", "WinGet"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("env lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	j := f.run(t, noTTY, nil, "env", "--json")
	if !strings.Contains(j.stdout, `"snapshot"`) || strings.Contains(j.stdout, "go1.99.0") {
		t.Fatalf("--json is env_inspect's snapshot alone:\n%s", j.stdout)
	}
}

// TestLogsFailuresShowRefusals: refused calls are what `wda logs --filter failures`
// lists.
func TestLogsFailuresShowRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.tool(t, "go", fakeGo)
	f.run(t, noTTY, nil, "call", "capability_run", `{"capability":"test-go","execute":true}`)
	f.run(t, noTTY, nil, "call", "logs_query", `{"last_n":500}`)
	f.run(t, noTTY, nil, "run", "test-go", "--plan")
	r := f.run(t, noTTY, nil, "logs", "--filter", "failures")
	if r.code != 0 || strings.Count(r.stdout, "status=invalid_input") != 2 || strings.Contains(r.stdout, "status=planned") ||
		!strings.Contains(r.stdout, "2 matching event(s)") {
		t.Fatalf("exit %d:\n%s", r.code, r.stdout)
	}
}

// TestProjectFlag: --project names another project; cwd-like arguments are contained
// in the project in force.
func TestProjectFlag(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.tool(t, "go", fakeGo)
	other := filepath.Join(f.home, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	r := f.run(t, noTTY, nil, "run", "test-go", "--plan", "--project", other)
	if r.code != 0 || !strings.Contains(r.stdout, "directory   $HOME/other") || !strings.Contains(r.stdout, "--project $HOME/other --yes") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = f.run(t, noTTY, nil, "run", "test-go", "--plan", "--project", other, "--cwd", f.project)
	if r.code != 1 || !strings.Contains(r.stdout, "must stay inside the project") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
