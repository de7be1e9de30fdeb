//go:build unix && !linux

package payload

// fileCopier copies file contents through a buffer: this system has no
// copy_file_range.
type fileCopier struct{ buf []byte }

// copy copies at most limit bytes from src to dst.
func (c *fileCopier) copy(dst, src int, _, limit int64) (int64, error) {
	return c.readWrite(dst, src, limit, 0)
}
