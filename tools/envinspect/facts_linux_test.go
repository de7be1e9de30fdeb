package envinspect

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// TestRealSnapshotFacts runs env_inspect on this machine and checks two facts a model
// misread (issue 22 §6) against what Linux itself says:
//   - the processor count is the number of logical processors (/proc/cpuinfo's
//     "processor" entries), under a name that says so; a two-vCPU VM reported
//     processor_count: 1 (one package);
//   - Docker is "installed" when the CLI is on PATH and "running" only when an engine
//     answers: a machine with the docker CLI and no /var/run/docker.sock reported
//     docker_available: true.
func TestRealSnapshotFacts(t *testing.T) {
	t.Parallel()
	env := &tools.Env{DataDir: t.TempDir(), Getenv: os.Getenv}
	m := call(t, New(DefaultDeps()), env, tools.Args{"force_refresh": true})
	snap, _ := m["snapshot"].(map[string]any)
	sys, _ := snap["system"].(map[string]any)
	dev, _ := snap["development_tools"].(map[string]any)
	if sys == nil || dev == nil {
		t.Fatalf("no snapshot: %v", m)
	}

	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	logical := 0
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); {
		if k, _, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "processor" {
			logical++
		}
	}
	if got, _ := sys["logical_processors"].(float64); int(got) != logical {
		t.Errorf("system.logical_processors = %v, want %d (/proc/cpuinfo); system = %v", sys["logical_processors"], logical, sys)
	}
	if _, ok := sys["processor_count"]; ok {
		t.Errorf("system.processor_count is still emitted (it counted packages): %v", sys)
	}

	if _, ok := dev["docker_available"]; ok {
		t.Errorf("development_tools.docker_available is still emitted: %v", dev)
	}
	docker := ""
	for _, dir := range strings.Split(os.Getenv("PATH"), ":") {
		if fi, err := os.Stat(dir + "/docker"); dir != "" && err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			docker = dir + "/docker"
			break
		}
	}
	if (docker != "") != (dev["docker_installed"] == true) {
		t.Errorf("docker_installed = %v, docker CLI on PATH: %q", dev["docker_installed"], docker)
	}
	_, sockErr := os.Stat("/var/run/docker.sock")
	home, _ := os.UserHomeDir()
	_, cfgErr := os.Stat(home + "/.docker")
	if os.Getenv("DOCKER_HOST") == "" && os.Getenv("DOCKER_CONTEXT") == "" && os.Getenv("DOCKER_CONFIG") == "" &&
		errors.Is(sockErr, fs.ErrNotExist) && errors.Is(cfgErr, fs.ErrNotExist) {
		// No engine socket and nothing naming another engine: established not running.
		if v, ok := dev["docker_running"]; !ok || v != false {
			t.Errorf("docker_running = %v (present %v), want false: no engine socket on this machine", v, ok)
		}
	} else {
		t.Logf("docker_running = %v (this machine may run an engine; not asserted)", dev["docker_running"])
	}
}
