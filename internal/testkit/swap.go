package testkit

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// NeedSwaps skips the test where the swap attack of SwapDuring cannot be staged: where
// symbolic links cannot be made in dir, and on Windows, where a bound directory is held
// without delete sharing and so cannot be renamed at all while a call uses it
// (internal/platform/contain's TestHoldForbidsRename proves that). Call it before
// binding anything.
func NeedSwaps(t testing.TB, dir string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("on Windows a bound directory cannot be renamed while it is held")
	}
	probe := filepath.Join(dir, ".swap-probe")
	defer os.Remove(probe)
	if !Symlink(dir, probe) {
		t.Skip("symbolic links cannot be created here")
	}
}

// SwapDuring runs read while another goroutine swaps the directory dir for a symbolic
// link to outside (the real directory is moved aside, the link put in its place), then
// puts the real directory back. It is the attack of a project subdirectory swapped for
// a link between the binding of a call and its reads (docs/safety/project-reads.md):
// run it many times and assert read never saw outside. Call NeedSwaps first.
func SwapDuring(t testing.TB, dir, outside string, read func()) {
	t.Helper()
	aside := dir + ".real"
	swapped := make(chan error, 1)
	go func() {
		if err := os.Rename(dir, aside); err != nil {
			swapped <- err
			return
		}
		swapped <- os.Symlink(outside, dir)
	}()
	read()
	err := <-swapped
	if _, statErr := os.Stat(aside); statErr == nil {
		_ = os.Remove(dir) // the link, if it was made
		if rerr := os.Rename(aside, dir); rerr != nil {
			t.Fatalf("restoring %s: %v", dir, rerr)
		}
	}
	if err != nil {
		t.Fatalf("swapping %s for a link: %v", dir, err)
	}
}
