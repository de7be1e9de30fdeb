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

func of(f *os.File) (string, error) { return OfHandle(windows.Handle(f.Fd())) }

// OfHandle is Of for a raw handle, for callers that opened it with CreateFile flags
// os.Open does not offer (internal/proc's sealed executables, opened without
// following a final reparse point). The answer comes from GetFinalPathNameByHandleW,
// which also expands 8.3 short names and normalises case, without the verbatim
// prefix (StripVerbatim). The buffer grows to the length the call asks for, so a path
// longer than MAX_PATH is answered whole.
func OfHandle(h windows.Handle) (string, error) {
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
