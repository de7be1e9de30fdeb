//go:build !windows && !linux && !darwin

package discovery

import (
	"errors"
	"runtime"
)

// systemFacts is not implemented for this platform.
func systemFacts() (System, error) {
	return System{}, errors.New("system facts are not implemented on " + runtime.GOOS)
}
