//go:build !windows

package mcpconfig

import "os"

// platformPerms reads the mode bits: group or other write permission. A project file
// is looked at without following a link (the guarded read refused links already); a
// host file through links, as it was read.
type platformPerms struct{}

func (platformPerms) othersCanWrite(path string, project bool) (writable, checked bool) {
	stat := os.Stat
	if project {
		stat = os.Lstat
	}
	fi, err := stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false, false
	}
	return fi.Mode().Perm()&0o022 != 0, true
}

// writableHow ends the writable_by_others detail: what on this system lets others write.
const writableHow = " (group or others may write it)"
