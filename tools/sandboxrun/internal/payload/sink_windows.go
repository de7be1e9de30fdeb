//go:build windows

package payload

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/windows-dev-agent/wda/internal/guard"
)

// pathSink is a bundle folder by path: the bundle is a fresh folder of the data
// directory that this staging made, and each folder made in it is checked to be a real
// directory before anything goes into it.
type pathSink struct{ path string }

func openSink(path string) (sink, error) { return &pathSink{path: path}, nil }

func (s *pathSink) Mkdir(name string, mayExist bool) (sink, error) {
	p := filepath.Join(s.path, name)
	if err := os.Mkdir(p, 0o700); err != nil && (!mayExist || !os.IsExist(err)) {
		return nil, err
	}
	if k, _, err := lstatKind(p); err != nil || k != guard.KindDir {
		return nil, fmt.Errorf("%s is not a real directory", p)
	}
	return &pathSink{path: p}, nil
}

// fileCopier copies through a 1 MiB buffer: Windows has no kernel copy between two
// handles, and io.Copy's 32 KiB chunks cost more calls.
type fileCopier struct{ buf []byte }

func (s *pathSink) Copy(name string, src *guard.File, limit int64, cp *fileCopier) (int64, error) {
	out, err := os.OpenFile(filepath.Join(s.path, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, err
	}
	if cp.buf == nil {
		cp.buf = make([]byte, 1<<20)
	}
	n, err := io.CopyBuffer(struct{ io.Writer }{out}, &io.LimitedReader{R: src, N: limit}, cp.buf)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}

func (s *pathSink) Close() error { return nil }
