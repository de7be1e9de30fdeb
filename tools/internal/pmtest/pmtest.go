// Package pmtest provides fake package managers (winget, choco, scoop) for the tests of
// package_search and package_install. The fake is the test binary itself: Install
// copies it under each name into a directory the test puts on PATH, next to a JSON
// config, and Main (the TestMain body) behaves as the fake when the binary finds such
// a config next to itself. Nothing is compiled at test time, so the tests need no Go
// toolchain and run the same under Wine, where the Linux go tool cannot run. World (a
// PATH directory and an Env that sees only it) is the set-up both tools' tests share.
//
// It is imported only by tests. It never uses os/exec.
package pmtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	goruntime "runtime"
)

// Config drives one fake executable (see fake).
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

// Install copies the fake (bin, the test binary) to dir/name (name without extension; ".exe" is added
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
	b, err := json.Marshal(fakeFile{Fake: true, Config: c})
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
