//go:build linux

package payload

import "golang.org/x/sys/unix"

// fileCopier copies file contents: in the kernel with copy_file_range where the file
// systems allow it, else through a buffer.
type fileCopier struct {
	buf      []byte
	noKernel bool // copy_file_range is unavailable here; stop trying
}

// copy copies src, which was size bytes long when it was opened, to dst: at most
// limit bytes, and no more than size, so a file still growing is staged as it was when
// opened and the copy ends without the extra call that would only report the end. A
// file that reports no size (some file systems serve content that way) is read to its
// end, within limit.
func (c *fileCopier) copy(dst, src int, size, limit int64) (int64, error) {
	want := min(size, limit)
	if size <= 0 {
		return c.readWrite(dst, src, limit, 0)
	}
	var done int64
	for !c.noKernel && done < want {
		n, err := unix.CopyFileRange(src, nil, dst, nil, int(min(want-done, 1<<30)), 0)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.ENOSYS || err == unix.EXDEV || err == unix.EINVAL || err == unix.EOPNOTSUPP || err == unix.EPERM:
			// No kernel copy between these two (old kernel, another file system, a
			// sandbox forbidding it): the buffer copies the rest.
			if err == unix.ENOSYS {
				c.noKernel = true
			}
			return c.readWrite(dst, src, want, done)
		case err != nil:
			return done, err
		case n == 0 && done == 0:
			// Nothing to copy although the file has a size: a file system that serves
			// it specially. Read it instead.
			return c.readWrite(dst, src, want, done)
		case n == 0:
			return done, nil // it shrank since it was opened
		}
		done += int64(n)
	}
	return c.readWrite(dst, src, want, done)
}
