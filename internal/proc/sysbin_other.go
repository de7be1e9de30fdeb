//go:build !windows

package proc

import (
	"errors"
	"fmt"
	"runtime"
)

// SystemBinary locates a binary below the Windows system directory. Off Windows there
// is none; the error names the platform and matches errors.ErrUnsupported.
func SystemBinary(name string) (string, error) {
	return "", &platformError{what: "Windows system binary " + name}
}

type platformError struct{ what string }

func (e *platformError) Error() string {
	return fmt.Sprintf("%s requires Windows; this is %s", e.what, runtime.GOOS)
}

// Unwrap lets callers test errors.Is(err, errors.ErrUnsupported) instead of matching text.
func (e *platformError) Unwrap() error { return errors.ErrUnsupported }
