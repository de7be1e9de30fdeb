//go:build !windows

package payload

import (
	"io/fs"
	"os"

	"github.com/windows-dev-agent/wda/internal/guard"
)

// lstatKind reads path's metadata without following a final symbolic link, for the
// data directory's own folders (cleanup, the runs folder). On Unix a symbolic link is
// the only kind of link.
func lstatKind(path string) (guard.Kind, fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return guard.KindOther, nil, err
	}
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		return guard.KindLink, fi, nil
	case m.IsRegular():
		return guard.KindFile, fi, nil
	case m.IsDir():
		return guard.KindDir, fi, nil
	}
	return guard.KindOther, fi, nil
}
