package discovery

import (
	"errors"

	"golang.org/x/sys/windows"
)

// isNotDir reports the Windows "path not found"/"invalid name" answers for a PATH
// entry that is a file or malformed: an established absence, not an unknown.
func isNotDir(err error) bool {
	return errors.Is(err, windows.ERROR_PATH_NOT_FOUND) || errors.Is(err, windows.ERROR_INVALID_NAME) ||
		errors.Is(err, windows.ERROR_DIRECTORY)
}
