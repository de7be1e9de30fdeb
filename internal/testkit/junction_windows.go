package testkit

import (
	"encoding/binary"
	"os"
	"unicode/utf16"

	"golang.org/x/sys/windows"
)

// Junction makes link a junction (an NTFS mount point) to the absolute directory
// target and reports whether one now exists; false means this system cannot make one
// (Wine has no FSCTL_SET_REPARSE_POINT), and then link does not exist either. Like
// Symlink, it checks the effect, not the return value.
func Junction(target, link string) bool {
	if err := os.Mkdir(link, 0o755); err != nil {
		return false
	}
	if setMountPoint(target, link) != nil {
		_ = os.Remove(link)
		return false
	}
	p, err := windows.UTF16PtrFromString(link)
	if err != nil {
		return false
	}
	attrs, err := windows.GetFileAttributes(p)
	return err == nil && attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0
}

// setMountPoint writes a REPARSE_DATA_BUFFER with IO_REPARSE_TAG_MOUNT_POINT onto the
// empty directory link: the header (tag, data length, reserved), the four offsets and
// lengths of the substitute and print names, then both names, each NUL-terminated.
func setMountPoint(target, link string) error {
	p, err := windows.UTF16PtrFromString(link)
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(p, windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	sub := utf16.Encode([]rune(`\??\` + target))
	prn := utf16.Encode([]rune(target))
	data := binary.LittleEndian.AppendUint16(nil, 0)                  // SubstituteNameOffset
	data = binary.LittleEndian.AppendUint16(data, uint16(2*len(sub))) // SubstituteNameLength
	data = binary.LittleEndian.AppendUint16(data, uint16(2*(len(sub)+1)))
	data = binary.LittleEndian.AppendUint16(data, uint16(2*len(prn)))
	for _, u := range append(append(append(sub, 0), prn...), 0) {
		data = binary.LittleEndian.AppendUint16(data, u)
	}
	buf := binary.LittleEndian.AppendUint32(nil, windows.IO_REPARSE_TAG_MOUNT_POINT)
	buf = binary.LittleEndian.AppendUint16(buf, uint16(len(data)))
	buf = binary.LittleEndian.AppendUint16(buf, 0) // Reserved
	buf = append(buf, data...)
	var n uint32
	return windows.DeviceIoControl(h, windows.FSCTL_SET_REPARSE_POINT, &buf[0], uint32(len(buf)), nil, 0, &n, nil)
}
