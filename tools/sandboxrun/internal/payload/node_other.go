//go:build !windows

package payload

import (
	"io/fs"
	"os"
	"syscall"
)

// lstatNode reads path's metadata without following a final symbolic link. On Unix a
// symbolic link is the only kind of link, so it stands in for a Windows reparse point.
func lstatNode(path string) (nodeInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nodeInfo{}, err
	}
	return infoFromFileInfo(fi), nil
}

func infoFromFileInfo(fi fs.FileInfo) nodeInfo {
	n := nodeInfo{kind: kindOf(fi.Mode()), size: fi.Size()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		n.id = fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	return n
}

func kindOf(m fs.FileMode) kind {
	switch {
	case m&fs.ModeSymlink != 0:
		return kindLink
	case m.IsRegular():
		return kindFile
	case m.IsDir():
		return kindDir
	}
	return kindOther
}
