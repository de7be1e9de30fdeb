//go:build !windows && !linux && !darwin && !freebsd && !openbsd && !netbsd && !dragonfly

package guard

import (
	"fmt"
	"io/fs"
	"os"
)

type osPlatform struct{}

func (osPlatform) linkLike(fi fs.FileInfo) bool {
	return fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0
}

// openUnder has no race-free primitive here: it opens, then re-walks and requires the
// walked path to still name the very file that was opened.
func (osPlatform) openUnder(t target) (*os.File, error) {
	f, err := os.Open(t.abs)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
		}
	}()
	again, exists, err := check(t.root, t.abs)
	if err != nil {
		return nil, err
	}
	if !exists || again.abs != t.abs {
		return nil, &LinkError{Path: t.abs}
	}
	hi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("metadata could not be established for %s: %w", t.abs, err)
	}
	li, err := os.Lstat(t.abs)
	if err != nil || !os.SameFile(hi, li) {
		return nil, &LinkError{Path: t.abs}
	}
	if !hi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file: %s", t.abs)
	}
	ok = true
	return f, nil
}

func (osPlatform) openPlain(path string) (*os.File, error) { return os.Open(path) }
