//go:build linux

package guard

import (
	"encoding/binary"
	"io/fs"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Entries lists the directory, sorted by name, with the kind and inode getdents
// reports for each entry, so a walker can open a regular file without a metadata call
// first and still prove, from the handle, that it opened the entry it listed. It reads
// through a fresh descriptor of the same directory, as Names does.
func (d *Dir) Entries() ([]DirEntry, error) {
	fd, err := openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	defer unix.Close(fd)
	var out []DirEntry
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "getdents", Path: d.path, Err: err}
		}
		if n <= 0 {
			break
		}
		out = appendDirents(out, buf[:n])
	}
	slices.SortFunc(out, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// appendDirents decodes struct linux_dirent64 records: d_ino (8 bytes), d_off (8),
// d_reclen (2), d_type (1), then the NUL-terminated name.
func appendDirents(out []DirEntry, b []byte) []DirEntry {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		name := rec[19:]
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		out = append(out, DirEntry{Name: string(name), Kind: direntKind(rec[18]), Ino: binary.NativeEndian.Uint64(rec[0:8])})
	}
	return out
}

func direntKind(t uint8) Kind {
	switch t {
	case unix.DT_REG:
		return KindFile
	case unix.DT_DIR:
		return KindDir
	case unix.DT_LNK:
		return KindLink
	case unix.DT_UNKNOWN:
		return KindUnknown
	}
	return KindOther
}
