package pmtest

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

// fakeFile is what Configure writes next to an installed fake. The marker tells the
// test binary, started under a fake's name, to behave as the fake instead of running
// tests; a test binary never has such a file next to it otherwise.
type fakeFile struct {
	Fake bool `json:"pmtest_fake"`
	Config
}

// grandchildArg makes a fake in hang mode start a copy of itself that only sleeps.
const grandchildArg = "__pmtest_grandchild"

// asFake runs the fake when this executable is an installed fake and returns its exit
// code and true; otherwise it returns false and the caller runs the tests.
func asFake() (int, bool) {
	if len(os.Args) > 1 && os.Args[1] == grandchildArg {
		time.Sleep(time.Hour)
		return 0, true
	}
	self, err := os.Executable()
	if err != nil {
		return 0, false
	}
	b, err := os.ReadFile(self + ".json")
	if err != nil {
		return 0, false
	}
	var f fakeFile
	if err := json.Unmarshal(b, &f); err != nil || !f.Fake {
		return 0, false
	}
	return fake(self, f.Config), true
}

// fake is one run of a fake package manager configured by c.
func fake(self string, c Config) int {
	rep := Report{Argv: os.Args}
	if c.DataDir != "" {
		g, err := os.ReadFile(filepath.Join(c.DataDir, "environment.generation"))
		rep.GenerationPresent = err == nil
		rep.Generation = string(g)
		_, err = os.Stat(filepath.Join(c.DataDir, "environment.json"))
		rep.SnapshotPresent = !errors.Is(err, fs.ErrNotExist)
	}
	if c.Report != "" {
		out, err := json.Marshal(rep)
		if err != nil {
			return fail(err)
		}
		if err := os.WriteFile(c.Report, out, 0o644); err != nil {
			return fail(err)
		}
	}
	// The install contract: the environment cache is invalidated before the installer
	// starts. An installer that sees the old generation (or a snapshot) refuses.
	if c.RequireInvalidated && (!rep.GenerationPresent || rep.Generation == c.GenerationWas || rep.SnapshotPresent) {
		fmt.Fprintln(os.Stderr, "fakepm: environment cache was not invalidated before start")
		return 97
	}
	switch c.Mode {
	case "print", "":
		if c.Fixture != "" {
			f, err := os.ReadFile(c.Fixture)
			if err != nil {
				return fail(err)
			}
			if _, err := os.Stdout.Write(f); err != nil {
				return fail(err)
			}
		}
	case "flood":
		chunk := []byte(strings.Repeat("winget-flood-line 0123456789abcdef\n", 1024))
		for n := 0; n < c.FloodBytes; n += len(chunk) {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return fail(err)
			}
		}
	case "hang":
		// A grandchild that inherits stdout: the run can only settle with a clean EOF
		// if the whole tree is killed.
		p, err := os.StartProcess(self, []string{self, grandchildArg}, &os.ProcAttr{Files: []*os.File{nil, os.Stdout, os.Stderr}})
		if err != nil {
			return fail(err)
		}
		if err := os.WriteFile(c.GrandchildPID, []byte(fmt.Sprint(p.Pid)), 0o644); err != nil {
			return fail(err)
		}
		fmt.Println("installing…")
		time.Sleep(time.Hour)
	default:
		return fail(fmt.Errorf("unknown mode %q", c.Mode))
	}
	return c.Exit
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "fakepm:", err)
	return 99
}
