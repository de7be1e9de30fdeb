package finalpath

import (
	"os"

	"golang.org/x/sys/windows"
)

// Flags of GetFinalPathNameByHandleW (absent from x/sys): the normalized name with the
// DOS drive letter.
const (
	fileNameNormalized = 0x0
	volumeNameDOS      = 0x0
)

// of asks the file system for the final path of the handle, which also expands 8.3
// short names and normalises case.
func of(f *os.File) (string, error) {
	h := windows.Handle(f.Fd())
	buf := make([]uint16, windows.MAX_PATH)
	for {
		n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), fileNameNormalized|volumeNameDOS)
		if err != nil {
			return "", err
		}
		if int(n) < len(buf) {
			return StripVerbatim(windows.UTF16ToString(buf[:n])), nil
		}
		buf = make([]uint16, n+1)
	}
}
