//go:build windows

package payload

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// lstatNode reads path's metadata without following a final reparse point. Any node
// carrying FILE_ATTRIBUTE_REPARSE_POINT (symbolic link, junction, mount point, App
// Execution Alias, cloud placeholder, dedup…) is a link: the spec refuses them all.
func lstatNode(path string) (nodeInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nodeInfo{}, err
	}
	return infoFromFileInfo(fi), nil
}

func infoFromFileInfo(fi fs.FileInfo) nodeInfo {
	n := nodeInfo{size: fi.Size()}
	attrs := uint32(0)
	if d, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		attrs = d.FileAttributes
	}
	m := fi.Mode()
	switch {
	case attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 || m&(fs.ModeSymlink|fs.ModeIrregular) != 0:
		n.kind = kindLink
	case m.IsRegular():
		n.kind = kindFile
	case m.IsDir():
		n.kind = kindDir
	default:
		n.kind = kindOther
	}
	return n
}
