package payload

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda/internal/guard"
)

// StaleAfter is the age after which a bundle left behind is swept (docs/tools/sandbox_run.md).
const StaleAfter = 24 * time.Hour

// Remove deletes one bundle, but only a real directory named run-* that holds the
// marker file: it is the one deletion this package performs outside a failed Stage, so
// it refuses anything it did not create.
func Remove(dir string) error {
	if !strings.HasPrefix(filepath.Base(dir), BundlePrefix) {
		return fmt.Errorf("not a Sandbox bundle: %s", dir)
	}
	if _, err := checkBundle(dir); err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// checkBundle proves dir is a real directory (no link or reparse point) holding the
// marker as a regular file, and returns the directory's modification time.
func checkBundle(dir string) (time.Time, error) {
	k, fi, err := lstatKind(dir)
	if err != nil {
		return time.Time{}, err
	}
	if k != guard.KindDir {
		return time.Time{}, fmt.Errorf("not a real directory: %s", dir)
	}
	if m, _, err := lstatKind(filepath.Join(dir, MarkerFile)); err != nil || m != guard.KindFile {
		return time.Time{}, fmt.Errorf("not a Sandbox bundle (no marker): %s", dir)
	}
	return fi.ModTime(), nil
}

// Sweep removes bundles under <dataDir>/sandbox-runs that are older than StaleAfter at
// now, are real directories and hold the marker. Everything else is left alone. It
// returns the bundles removed and the errors met (which callers may only log).
func Sweep(dataDir string, now time.Time) ([]string, error) {
	runs := filepath.Join(dataDir, RunsDir)
	k, _, err := lstatKind(runs)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if k != guard.KindDir {
		return nil, fmt.Errorf("%s is not a real directory; nothing swept", runs)
	}
	entries, err := os.ReadDir(runs)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), BundlePrefix) {
			continue
		}
		dir := filepath.Join(runs, e.Name())
		mtime, err := checkBundle(dir)
		if err != nil || now.Sub(mtime) <= StaleAfter {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, dir)
	}
	return removed, errors.Join(errs...)
}

// SweepStale is Sweep at the current time, for server start-up (cmd/wda) and before
// every Sandbox launch. Errors are informational: a failed sweep changes nothing.
func SweepStale(dataDir string) error {
	_, err := Sweep(dataDir, time.Now())
	return err
}
