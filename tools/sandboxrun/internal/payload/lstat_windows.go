//go:build windows

package payload

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/windows-dev-agent/wda/internal/guard"
)

// lstatKind reads path's metadata without following a final reparse point, for the
// data directory's own folders (cleanup, the runs folder). Any node carrying
// FILE_ATTRIBUTE_REPARSE_POINT is a link.
func lstatKind(path string) (guard.Kind, fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return guard.KindOther, nil, err
	}
	attrs := uint32(0)
	if d, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		attrs = d.FileAttributes
	}
	m := fi.Mode()
	switch {
	case attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 || m&(fs.ModeSymlink|fs.ModeIrregular) != 0:
		return guard.KindLink, fi, nil
	case m.IsRegular():
		return guard.KindFile, fi, nil
	case m.IsDir():
		return guard.KindDir, fi, nil
	}
	return guard.KindOther, fi, nil
}
