package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// SwapDuring runs read while another goroutine swaps the directory dir for a symbolic
// link to outside (the real directory is moved aside, the link put in its place), then
// puts the real directory back. It is the attack of a project subdirectory swapped for
// a link between the binding of a call and its reads (docs/safety/project-reads.md):
// run it many times and assert read never saw outside. It skips the test where links
// cannot be made.
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
	if !linksWork(filepath.Dir(dir), outside) {
		t.Skip("symbolic links cannot be created here")
	}
}

// linksWork reports whether a link made in dir is really a link (see Symlink).
func linksWork(dir, target string) bool {
	probe := filepath.Join(dir, ".swap-probe")
	defer os.Remove(probe)
	return Symlink(target, probe)
}
