//go:build unix

package main

// Through a real terminal: tmux runs the built wda, send-keys types the answer and
// capture-pane reads the screen. Only files named *e2e*_test.go under cmd/ may use
// os/exec (internal/proc's monopoly test).

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slowGo prints a line, then waits until the test lets it finish, so the progress line
// is on screen for as long as the test needs to read it.
const slowGo = `#!/bin/sh
if [ "$1" = version ]; then echo 'go version go1.99.0 fake/arch'; exit 0; fi
echo $$ > "$PWD/pid"
echo "working on step 1"
while [ ! -f "$PWD/release" ]; do sleep 0.05; done
echo "all steps done"
`

type tmux struct {
	t      *testing.T
	socket string
}

// exited matches the line the shell prints after wda ends (not the echo of the command
// line, which also holds "EXIT=").
var exited = regexp.MustCompile(`(?m)^EXIT=\d+`)

func (m *tmux) cmd(args ...string) string {
	m.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", m.socket}, args...)...).CombinedOutput()
	if err != nil {
		m.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is the pane's visible text.
func (m *tmux) screen() string { return m.cmd("capture-pane", "-p", "-t", "t") }

// waitFor polls the screen until match holds, at most 30 s.
func (m *tmux) waitFor(what string, match func(string) bool) string {
	m.t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(30 * time.Second)
	for {
		s := m.screen()
		if match(s) {
			return s
		}
		select {
		case <-deadline:
			m.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		case <-tick.C:
		}
	}
}

func TestTerminalPromptAndProgress(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	root := t.TempDir()
	project, bin, data := filepath.Join(root, "project"), filepath.Join(root, "bin"), filepath.Join(root, "data")
	for _, d := range []string{project, bin, data} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(slowGo), 0o755); err != nil {
		t.Fatal(err)
	}
	m := &tmux{t: t, socket: fmt.Sprintf("wda-test-%d", os.Getpid())}
	m.cmd("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "-c", project, "sh")
	t.Cleanup(func() { exec.Command("tmux", "-L", m.socket, "kill-server").Run() })
	// The environment is on the command line: a shell's profile cannot change it.
	run := fmt.Sprintf("env PATH=%s:/usr/bin:/bin WINDOWS_DEV_AGENT_PROJECT_DIR=%s WINDOWS_DEV_AGENT_DATA_DIR=%s %s run test-go; echo EXIT=$?",
		bin, project, data, wdaBin)

	// A no: nothing runs, exit 1.
	m.cmd("send-keys", "-t", "t", run, "Enter")
	m.waitFor("the question", func(s string) bool { return strings.Contains(s, "Run this? [y/N]") })
	m.cmd("send-keys", "-t", "t", "n", "Enter")
	s := m.waitFor("the refusal", exited.MatchString)
	if !strings.Contains(s, "Not run.") || !strings.Contains(s, "EXIT=1") {
		t.Fatalf("screen:\n%s", s)
	}
	m.cmd("send-keys", "-t", "t", "clear", "Enter")
	m.waitFor("a clear screen", func(s string) bool { return !exited.MatchString(s) })

	// A yes: the plan runs, the progress line shows its last output while it runs,
	// and is gone at the end.
	m.cmd("send-keys", "-t", "t", run, "Enter")
	m.waitFor("the question", func(s string) bool { return strings.Contains(s, "Run this? [y/N]") })
	m.cmd("send-keys", "-t", "t", "y", "Enter")
	frame := regexp.MustCompile(`wda run test-go \d+s  working on step 1`)
	m.waitFor("the progress line", frame.MatchString)
	if err := os.WriteFile(filepath.Join(project, "release"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s = m.waitFor("the end", exited.MatchString)
	if !strings.Contains(s, "status: completed (exit code 0)") || !strings.Contains(s, "all steps done") || !strings.Contains(s, "EXIT=0") {
		t.Fatalf("screen:\n%s", s)
	}
	if regexp.MustCompile(`wda run test-go \d+s`).MatchString(s) {
		t.Fatalf("the progress line was not cleared:\n%s", s)
	}

	// Ctrl-C while it runs: wda stops the process tree (the child is in its own process
	// group, so the terminal's SIGINT never reached it) and exits 130.
	os.Remove(filepath.Join(project, "release"))
	os.Remove(filepath.Join(project, "pid"))
	m.cmd("send-keys", "-t", "t", "clear", "Enter")
	m.waitFor("a clear screen", func(s string) bool { return !exited.MatchString(s) })
	m.cmd("send-keys", "-t", "t", strings.Replace(run, " run test-go", " run test-go --yes", 1), "Enter")
	m.waitFor("the progress line", frame.MatchString)
	pidText, err := os.ReadFile(filepath.Join(project, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	m.cmd("send-keys", "-t", "t", "C-c")
	s = m.waitFor("the end", exited.MatchString)
	if !strings.Contains(s, "interrupted") || !strings.Contains(s, "EXIT=130") {
		t.Fatalf("screen:\n%s", s)
	}
	var pid int
	fmt.Sscanf(strings.TrimSpace(string(pidText)), "%d", &pid)
	if pid <= 0 || syscall.Kill(pid, 0) == nil {
		t.Fatalf("the interrupted run's process %d is still alive", pid)
	}
}

// TestNoProgressWhenPiped: without a terminal there is no prompt and no progress line:
// stderr carries no carriage return.
func TestNoProgressWhenPiped(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go"), []byte(strings.Replace(slowGo, `while [ ! -f "$PWD/release" ]; do sleep 0.05; done`, "", 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(wdaBin, "run", "test-go", "--yes")
	cmd.Dir = root
	cmd.Env = []string{"PATH=" + root, "WINDOWS_DEV_AGENT_PROJECT_DIR=" + root, "WINDOWS_DEV_AGENT_DATA_DIR=" + filepath.Join(root, "data"), "HOME=" + root}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, stderr.String())
	}
	if strings.Contains(stderr.String(), "\r") || strings.Contains(string(out), "\r") || !strings.Contains(string(out), "all steps done") {
		t.Fatalf("stdout %q stderr %q", out, stderr.String())
	}
}
