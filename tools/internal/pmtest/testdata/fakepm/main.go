// Command fakepm stands in for winget, choco and scoop in tests. It is built once per
// test binary and copied under each name. Its behaviour comes from <its path>.json,
// written by the test (see pmtest.Config), so the test never relies on the environment
// the runner hands the child.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

type config struct {
	Report         string `json:"report"`
	Mode           string `json:"mode"`
	Fixture        string `json:"fixture"`
	Exit           int    `json:"exit"`
	DataDir        string `json:"data_dir"`
	GenerationWas  string `json:"generation_was"`
	GrandchildPID  string `json:"grandchild_pid"`
	FloodBytes     int    `json:"flood_bytes"`
	RequireInvalid bool   `json:"require_invalidated"`
}

type report struct {
	Argv              []string `json:"argv"`
	Generation        string   `json:"generation"`
	GenerationPresent bool     `json:"generation_present"`
	SnapshotPresent   bool     `json:"snapshot_present"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "__grandchild" {
		time.Sleep(time.Hour)
		return
	}
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	b, err := os.ReadFile(self + ".json")
	if err != nil {
		fail(err)
	}
	var c config
	if err := json.Unmarshal(b, &c); err != nil {
		fail(err)
	}
	rep := report{Argv: os.Args}
	if c.DataDir != "" {
		g, err := os.ReadFile(filepath.Join(c.DataDir, "environment.generation"))
		rep.GenerationPresent = err == nil
		rep.Generation = string(g)
		_, err = os.Stat(filepath.Join(c.DataDir, "environment.json"))
		rep.SnapshotPresent = !errors.Is(err, fs.ErrNotExist)
	}
	if c.Report != "" {
		out, _ := json.Marshal(rep)
		if err := os.WriteFile(c.Report, out, 0o644); err != nil {
			fail(err)
		}
	}
	// The install contract: the environment cache is invalidated before the installer
	// starts. An installer that sees the old generation (or a snapshot) refuses.
	if c.RequireInvalid && (!rep.GenerationPresent || rep.Generation == c.GenerationWas || rep.SnapshotPresent) {
		fmt.Fprintln(os.Stderr, "fakepm: environment cache was not invalidated before start")
		os.Exit(97)
	}
	switch c.Mode {
	case "print", "":
		if c.Fixture != "" {
			f, err := os.ReadFile(c.Fixture)
			if err != nil {
				fail(err)
			}
			os.Stdout.Write(f)
		}
	case "flood":
		chunk := []byte(strings.Repeat("winget-flood-line 0123456789abcdef\n", 1024))
		for n := 0; n < c.FloodBytes; n += len(chunk) {
			os.Stdout.Write(chunk)
		}
	case "hang":
		// A grandchild that inherits stdout: the run can only settle with a clean EOF
		// if the whole tree is killed.
		p, err := os.StartProcess(self, []string{self, "__grandchild"}, &os.ProcAttr{Files: []*os.File{nil, os.Stdout, os.Stderr}})
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(c.GrandchildPID, []byte(fmt.Sprint(p.Pid)), 0o644); err != nil {
			fail(err)
		}
		fmt.Println("installing…")
		time.Sleep(time.Hour)
	default:
		fail(fmt.Errorf("unknown mode %q", c.Mode))
	}
	os.Exit(c.Exit)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "fakepm:", err)
	os.Exit(99)
}
