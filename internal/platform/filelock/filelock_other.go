//go:build !unix && !windows

package filelock

import (
	"errors"
	"os"
)

// There is no cross-process lock on this OS: every attempt fails, so a caller never
// proceeds believing it holds one.

func tryLock(*os.File, bool) (bool, error) { return false, errors.ErrUnsupported }
func lock(*os.File, bool) error            { return errors.ErrUnsupported }
func unlock(*os.File) error                { return errors.ErrUnsupported }
