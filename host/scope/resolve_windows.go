//go:build windows

package scope

import (
	"errors"
	"strings"

	"golang.org/x/sys/windows"
)

// caseInsensitive: NTFS and ReFS names compare without case for containment.
const caseInsensitive = true

// Flags of GetFinalPathNameByHandleW (absent from x/sys).
const (
	fileNameNormalized = 0x0
	volumeNameDOS      = 0x0
)

// resolveDir opens the directory itself (following every reparse point: symbolic links
// and junctions alike) and asks for the final path of the handle, which also expands
// 8.3 short names and normalises case.
func resolveDir(abs string) (string, error) {
	p, err := windows.UTF16PtrFromString(abs)
	if err != nil {
		return "", err
	}
	h, err := windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return "", err
	}
	defer windows.CloseHandle(h)
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return "", err
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY == 0 {
		return "", errors.New("not a directory")
	}
	buf := make([]uint16, windows.MAX_PATH)
	for {
		n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), fileNameNormalized|volumeNameDOS)
		if err != nil {
			return "", err
		}
		if int(n) < len(buf) {
			return stripVerbatim(windows.UTF16ToString(buf[:n])), nil
		}
		buf = make([]uint16, n+1)
	}
}

// stripVerbatim turns \\?\C:\x into C:\x and \\?\UNC\srv\share into \\srv\share.
func stripVerbatim(p string) string {
	switch {
	case strings.HasPrefix(p, `\\?\UNC\`):
		return `\\` + p[len(`\\?\UNC\`):]
	case strings.HasPrefix(p, `\\?\`):
		return p[len(`\\?\`):]
	}
	return p
}
