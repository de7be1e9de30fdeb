//go:build linux

package payload

import "golang.org/x/sys/unix"

// fileCopier copies file contents: in the kernel with copy_file_range where the file
// systems allow it, else through a buffer.
type fileCopier struct {
	buf      []byte
	noKernel bool // copy_file_range is unavailable here; stop trying
}

// copy copies at most limit bytes from src (size bytes long when it was opened) to dst.
func (c *fileCopier) copy(dst, src int, size, limit int64) (int64, error) {
	var done int64
	for !c.noKernel && done < limit {
		n, err := unix.CopyFileRange(src, nil, dst, nil, int(min(limit-done, 1<<30)), 0)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.ENOSYS || err == unix.EXDEV || err == unix.EINVAL || err == unix.EOPNOTSUPP || err == unix.EPERM:
			// No kernel copy between these two (old kernel, another file system, a
			// sandbox forbidding it): the buffer copies the rest.
			if err == unix.ENOSYS {
				c.noKernel = true
			}
			return c.readWrite(dst, src, limit, done)
		case err != nil:
			return done, err
		case n == 0 && done == 0 && size > 0:
			// Some file systems report nothing to copy for files they serve
			// specially; read them instead.
			return c.readWrite(dst, src, limit, done)
		case n == 0:
			return done, nil
		}
		done += int64(n)
	}
	return c.readWrite(dst, src, limit, done)
}
