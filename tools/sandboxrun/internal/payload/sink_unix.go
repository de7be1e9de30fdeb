//go:build unix

package payload

import (
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/windows-dev-agent/wda/internal/guard"
)

// fdSink holds a bundle folder by descriptor; children are made with mkdirat and
// openat(O_CREAT|O_EXCL|O_NOFOLLOW) relative to it. Files are bare descriptors, never
// *os.File: registering each one with the runtime poller costs several fcntl calls and
// a failing epoll_ctl per file, which a tree of thousands of small files pays in full
// (docs/tools/sandbox_run.md, staging).
type fdSink struct {
	fd   int
	path string
}

func openSink(path string) (sink, error) {
	fd, err := openat(unix.AT_FDCWD, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &fdSink{fd: fd, path: path}, nil
}

func (s *fdSink) Mkdir(name string, mayExist bool) (sink, error) {
	p := filepath.Join(s.path, name)
	if err := unix.Mkdirat(s.fd, name, 0o700); err != nil && (!mayExist || err != unix.EEXIST) {
		return nil, &fs.PathError{Op: "mkdir", Path: p, Err: err}
	}
	fd, err := openat(s.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	return &fdSink{fd: fd, path: p}, nil
}

func (s *fdSink) Copy(name string, src *guard.File, limit int64, cp *fileCopier) (int64, error) {
	fd, err := openat(s.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return 0, &fs.PathError{Op: "create", Path: filepath.Join(s.path, name), Err: err}
	}
	n, err := cp.copy(fd, int(src.Fd()), src.Info().Size, limit)
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		err = cerr
	}
	return n, err
}

func (s *fdSink) Close() error { return unix.Close(s.fd) }

func openat(dir int, name string, flags int, mode uint32) (int, error) {
	for {
		fd, err := unix.Openat(dir, name, flags, mode)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// readWrite copies what remains (at most limit bytes in all, done already copied)
// through a buffer kept for the whole staging.
func (c *fileCopier) readWrite(dst, src int, limit, done int64) (int64, error) {
	if c.buf == nil {
		c.buf = make([]byte, 256<<10)
	}
	for done < limit {
		buf := c.buf[:min(int64(len(c.buf)), limit-done)]
		n, err := unix.Read(src, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, err
		}
		if n == 0 {
			return done, nil
		}
		for w := 0; w < n; {
			m, err := unix.Write(dst, buf[w:n])
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return done + int64(w), err
			}
			w += m
		}
		done += int64(n)
	}
	return done, nil
}
