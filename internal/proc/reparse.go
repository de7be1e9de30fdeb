package proc

import (
	"encoding/binary"
	"errors"
)

// ioReparseTagAppExecLink is IO_REPARSE_TAG_APPEXECLINK, the tag of App Execution
// Aliases such as %LOCALAPPDATA%\Microsoft\WindowsApps\winget.exe.
const ioReparseTagAppExecLink = 0x8000001B

// maxReparseBuffer bounds FSCTL_GET_REPARSE_POINT output (MAXIMUM_REPARSE_DATA_BUFFER_SIZE).
const maxReparseBuffer = 16 * 1024

// reparseTag reads the tag of a raw REPARSE_DATA_BUFFER. The header is ReparseTag
// (uint32), ReparseDataLength (uint16), Reserved (uint16); the declared data length
// must fit in what was returned.
func reparseTag(buf []byte) (uint32, error) {
	if len(buf) < 8 {
		return 0, errors.New("reparse buffer shorter than its 8-byte header")
	}
	if len(buf) > maxReparseBuffer {
		return 0, errors.New("reparse buffer exceeds 16 KiB")
	}
	if n := int(binary.LittleEndian.Uint16(buf[4:6])); 8+n > len(buf) {
		return 0, errors.New("reparse buffer data length exceeds the returned bytes")
	}
	return binary.LittleEndian.Uint32(buf[0:4]), nil
}
