// Package pmtest builds fake package managers (winget, choco, scoop) for the tests of
// package_search and package_install: one small Go program (testdata/fakepm) compiled
// with the Go toolchain through runtime/proc, copied under each name into a directory
// the test puts on PATH, and driven by a JSON file next to each copy. Main (the
// TestMain body that builds it once) and World (a PATH directory and an Env that sees
// only it) are the set-up both tools' tests share.
//
// It is imported only by tests. It never uses os/exec: the build goes through proc.Run.
package pmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"time"

	"github.com/windows-dev-agent/wda/runtime/proc"
)

// Config drives one fake executable (see testdata/fakepm).
type Config struct {
	// Report is where the fake writes what it saw: its argv and the cache state.
	Report string `json:"report,omitempty"`
	// Mode is print (Fixture to stdout, then exit with Exit), flood (FloodBytes of
	// stdout) or hang (start a grandchild sharing stdout, write its pid to
	// GrandchildPID, sleep).
	Mode       string `json:"mode,omitempty"`
	Fixture    string `json:"fixture,omitempty"`
	Exit       int    `json:"exit,omitempty"`
	FloodBytes int    `json:"flood_bytes,omitempty"`
	// DataDir is inspected for environment.generation and environment.json at start.
	DataDir string `json:"data_dir,omitempty"`
	// GenerationWas is the token before the call; with RequireInvalidated the fake exits
	// 97 unless the token changed and the snapshot is gone.
	GenerationWas      string `json:"generation_was,omitempty"`
	RequireInvalidated bool   `json:"require_invalidated,omitempty"`
	GrandchildPID      string `json:"grandchild_pid,omitempty"`
}

// Report is what a fake recorded.
type Report struct {
	Argv              []string `json:"argv"`
	Generation        string   `json:"generation"`
	GenerationPresent bool     `json:"generation_present"`
	SnapshotPresent   bool     `json:"snapshot_present"`
}

// Build compiles the fake into dir/fakepm-bin (dir must exist) and returns its path.
func Build(dir string) (string, error) {
	_, self, _, ok := goruntime.Caller(0)
	if !ok {
		return "", fmt.Errorf("pmtest: cannot locate its own source")
	}
	src := filepath.Join(filepath.Dir(self), "testdata", "fakepm")
	out := filepath.Join(dir, "fakepm-bin"+exeSuffix())
	goTool := filepath.Join(goruntime.GOROOT(), "bin", "go"+exeSuffix())
	r := proc.Run(context.Background(), proc.Request{
		Argv:    []string{goTool, "build", "-o", out, "."},
		Dir:     src,
		Timeout: 5 * time.Minute,
	})
	if !r.Succeeded {
		return "", fmt.Errorf("pmtest: building the fake failed: %s\n%s\n%s", r.Error, r.Stdout, r.Stderr)
	}
	return out, nil
}

// Install copies the built fake to dir/name (name without extension; ".exe" is added
// on Windows), writes its config and returns the copy's path.
func Install(bin, dir, name string, c Config) (string, error) {
	b, err := os.ReadFile(bin)
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, name+exeSuffix())
	if err := os.WriteFile(p, b, 0o755); err != nil {
		return "", err
	}
	return p, Configure(p, c)
}

// Configure rewrites the config of an installed fake.
func Configure(exe string, c Config) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return os.WriteFile(exe+".json", b, 0o644)
}

// ReadReport returns the report a fake wrote, and false when it never ran.
func ReadReport(path string) (Report, bool, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return Report{}, false, nil
	}
	if err != nil {
		return Report{}, false, err
	}
	var r Report
	return r, true, json.Unmarshal(b, &r)
}

// Touch changes the bytes of an installed fake without changing its behaviour (an
// appended trailer), so its identity no longer matches an earlier plan.
func Touch(exe string) error {
	f, err := os.OpenFile(exe, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString("\x00pmtest-changed"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func exeSuffix() string {
	if goruntime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
