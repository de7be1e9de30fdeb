package auditexport

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// Cursor is the durable position of the export (docs/telemetry.md, "Durability"): the
// segment it is in, named by the SHA-256 of the segment's first line (rotation renames
// a segment and never rewrites it, so its first line names it under either name), and
// the byte offset after the last record the collector acknowledged.
//
// Sealed means the whole segment was exported and the segment after it had no whole
// line yet to be named by; the next pass moves the cursor to that segment's start.
type Cursor struct {
	Version int    `json:"version"`
	Head    string `json:"head"`
	Offset  int64  `json:"offset"`
	Sealed  bool   `json:"sealed,omitempty"`
}

const cursorVersion = 1

// maxCursorBytes bounds the cursor file read.
const maxCursorBytes = 4096

// readCursor loads the cursor; a missing file is the start of the log. A cursor that does
// not parse is an error naming the file: starting over would send everything again.
func readCursor(path string) (Cursor, error) {
	f, err := os.Open(path) //nolint:gosec // G304: the data directory's own cursor
	if errors.Is(err, fs.ErrNotExist) {
		return Cursor{}, nil
	}
	if err != nil {
		return Cursor{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxCursorBytes+1))
	if err != nil {
		return Cursor{}, err
	}
	var c Cursor
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if len(b) > maxCursorBytes || d.Decode(&c) != nil || c.Version != cursorVersion || c.Offset < 0 ||
		(c.Head != "" && len(c.Head) != 2*sha256.Size) {
		return Cursor{}, fmt.Errorf("%s is not an audit export cursor (version %d, a head and an offset); remove it to export the retained log again", path, cursorVersion)
	}
	return c, nil
}

// writeCursor replaces the cursor atomically: a temporary file in the same directory,
// flushed, then renamed over the old one, so a crash leaves the old or the new cursor.
func writeCursor(path string, c Cursor) error {
	c.Version = cursorVersion
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(b, '\n'))
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return errors.Join(err, os.Remove(tmp.Name()))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return errors.Join(err, os.Remove(tmp.Name()))
	}
	return nil
}

// segment is a retained segment with the name the cursor gives it.
type segment struct {
	audit.Segment
	head string // "" while the segment has no whole line
}

// headOf names a segment by the SHA-256 of its first line (newline included).
func headOf(s audit.Segment) (string, error) {
	n := min(s.Size, int64(audit.MaxRecordBytes)+1)
	buf := make([]byte, n)
	got, err := s.File.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	i := bytes.IndexByte(buf[:got], '\n')
	if i < 0 {
		return "", nil
	}
	sum := sha256.Sum256(buf[:i+1])
	return hex.EncodeToString(sum[:]), nil
}
