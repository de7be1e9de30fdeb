//go:build unix && !linux

package payload

// fileCopier copies file contents through a buffer: this system has no
// copy_file_range.
type fileCopier struct{ buf []byte }

// copy copies src, size bytes long when it was opened, to dst: at most limit bytes and
// no more than size (a file that reports no size is read to its end, within limit).
func (c *fileCopier) copy(dst, src int, size, limit int64) (int64, error) {
	if size > 0 {
		limit = min(size, limit)
	}
	return c.readWrite(dst, src, limit, 0)
}
