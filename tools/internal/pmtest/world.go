package pmtest

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// built is this test binary, which World.Install copies as the fake.
var built string

// Main is a TestMain body: started as an installed fake it behaves as the fake;
// otherwise it runs the tests. It returns the exit code:
//
//	func TestMain(m *testing.M) { os.Exit(pmtest.Main(m)) }
func Main(m *testing.M) int {
	if code, ok := asFake(); ok {
		// syscall.Exit, not a return to os.Exit: in a -race test binary os.Exit runs the
		// race runtime's exit hook, which sleeps 1 s (atexit_sleep_ms) on every fake run.
		syscall.Exit(code)
		return code
	}
	var err error
	if built, err = os.Executable(); err != nil {
		fmt.Fprintln(os.Stderr, "pmtest: cannot locate the test binary:", err)
		return 2
	}
	return m.Run()
}

// World is one test's PATH directory for fakes and an Env whose PATH is only that
// directory, so nothing installed on the machine is ever found.
type World struct {
	T *testing.T
	// Bin is the PATH directory; Install fakes into it.
	Bin string
	// Env has ProjectDir = the test's root, DataDir = root/data (not created) and
	// PATH = Bin; every other variable is empty.
	Env *tools.Env
	// Report is the report file a fake writes when its Config names it.
	Report string
}

// NewWorld makes a World under t.TempDir().
func NewWorld(t *testing.T) *World {
	t.Helper()
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	env := &tools.Env{DataDir: filepath.Join(root, "data"), ProjectDir: root, Getenv: func(k string) string {
		if k == "PATH" {
			return bin
		}
		return ""
	}}
	return &World{T: t, Bin: bin, Env: env, Report: filepath.Join(root, "report.json")}
}

// Install installs the fake built by Main into Bin as name with c and returns its path.
func (w *World) Install(name string, c Config) string {
	w.T.Helper()
	if built == "" {
		w.T.Fatal("pmtest: no fake; call pmtest.Main from TestMain")
	}
	p, err := Install(built, w.Bin, name, c)
	if err != nil {
		w.T.Fatal(err)
	}
	return p
}

// Ran returns the report of the fake that ran, and false when none did.
func (w *World) Ran() (Report, bool) {
	w.T.Helper()
	r, ok, err := ReadReport(w.Report)
	if err != nil {
		w.T.Fatal(err)
	}
	return r, ok
}
