package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// maxSegmentRead is the most Read takes from one segment: a segment this package wrote
// is never larger. A larger file (another writer, a corrupted log) is read from its end,
// and the partial first line is dropped.
const maxSegmentRead = SegmentLimit + MaxRecordBytes

// snapshotAttempts bounds the lock-free attempts at a consistent pair of segments; each
// attempt fails only if a rotation ran during it (a few microseconds), so more than one
// failure in a row needs a log rotating several times a millisecond.
const snapshotAttempts = 4

// readLockWait is how long a reader waits for the log lock in the rare fallback; it is
// shorter than LockTimeout because a reader can still answer without it.
const readLockWait = time.Second

// Read returns every record retained in dataDir, oldest first: agent.log.1, then
// agent.log (docs/audit.md, "Reading"). It takes no lock: it opens both segments, checks
// that no rotation ran meanwhile, and reads each opened file up to the size it had, so a
// read is one consistent moment of the log and never holds a writer off. A segment that
// is absent or cannot be opened is skipped; lines that are not JSON objects are skipped
// (a line still being written is one); legacy records are kept as they are. Numbers
// are float64. The error is non-nil only for an empty dataDir: unreadable history is an
// empty result, not a failure.
func Read(dataDir string) ([]map[string]any, error) {
	segs, err := readRetained(dataDir, openRead)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, data := range segs {
		out = append(out, ParseLines(data)...)
	}
	return out, nil
}

// ReadSession is Read narrowed to records whose session_id equals sessionID exactly;
// an empty sessionID returns all retained history. Only lines that can hold the session
// id are decoded (sessionLines); the result is the same as decoding every line and
// keeping the matches.
func ReadSession(dataDir, sessionID string) ([]map[string]any, error) {
	if sessionID == "" {
		return Read(dataDir)
	}
	segs, err := readRetained(dataDir, openRead)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, data := range segs {
		sessionLines(data, sessionID, func(line []byte) {
			if m := decodeLine(line); m != nil {
				if s, ok := m["session_id"].(string); ok && s == sessionID {
					out = append(out, m)
				}
			}
		})
	}
	return out, nil
}

// readRetained returns the bytes of each retained segment, oldest first, from one
// snapshot; open opens a segment for reading (a parameter so tests can fail it or run
// a rotation in the middle of a snapshot).
func readRetained(dataDir string, open func(string) (*os.File, error)) ([][]byte, error) {
	held, err := retainedSnapshot(dataDir, open)
	if err != nil {
		return nil, err
	}
	defer closeSegments(held...)
	var out [][]byte
	for _, h := range held {
		data, err := readHeld(h.f, h.info.Size())
		if err != nil {
			continue
		}
		out = append(out, data)
	}
	return out, nil
}

// eachRetained reads the retained segments of one snapshot as readRetained does, but
// each on a goroutine of its own and in pieces: scan(i, next) is called once per
// segment (i is its place, oldest first) and calls next() for each piece of the
// segment's bytes, nil at the end. Pieces end at line boundaries (the last may end
// where the segment does), so eachLine and sessionLines see the same lines in them as
// in the whole segment; a piece is valid only until the next call. scan's error
// result is the read error that cut the segment short (readRetained skips such a
// segment; so must the caller). eachRetained returns when every scan has.
//
// A Stop hook reads through one small buffer per segment rather than the whole log:
// a hook process never collects garbage (cmd/wda-hook), and on a virtual machine the
// first touch of each fresh page of a 4 MiB buffer cost more than reading the file.
func eachRetained(dataDir string, open func(string) (*os.File, error), scan func(i int, next func() ([]byte, error))) error {
	held, err := retainedSnapshot(dataDir, open)
	if err != nil {
		return err
	}
	defer closeSegments(held...)
	one := func(i int) {
		r := newPieceReader(held[i].f, held[i].info.Size(), pieceBytes)
		scan(i, r.next)
	}
	var wg sync.WaitGroup
	for i := 1; i < len(held); i++ {
		wg.Go(func() { one(i) })
	}
	if len(held) > 0 {
		one(0)
	}
	wg.Wait()
	return nil
}

// pieceBytes is a piece reader's starting buffer; a line longer than that grows it.
const pieceBytes = 256 << 10

// pieceReader yields the bytes readHeld would return, in pieces that end at a newline.
type pieceReader struct {
	f         *os.File
	off, end  int64
	skipFirst bool // the read starts inside a line: drop bytes up to the first newline
	buf       []byte
	bufBytes  int    // the first buffer's size
	keep      int    // bytes of an unfinished line at the start of buf
	rest      []byte // an unfinished line after the piece just returned, moved to the front by the next call
	done      bool
}

func newPieceReader(f *os.File, size int64, bufBytes int) *pieceReader {
	r := &pieceReader{f: f, end: size, bufBytes: max(bufBytes, 1)}
	if size > maxSegmentRead {
		// As readHeld: start one byte early, so a newline there starts the tail on a
		// whole line.
		r.off, r.skipFirst = size-maxSegmentRead-1, true
	}
	return r
}

// next returns the next piece, nil at the end, or the error that ended the read.
func (r *pieceReader) next() ([]byte, error) {
	if r.rest != nil {
		r.keep, r.rest = copy(r.buf, r.rest), nil
	}
	for !r.done {
		if r.buf == nil {
			r.buf = make([]byte, min(int64(r.bufBytes), max(r.end-r.off, 1)))
		}
		if r.keep == len(r.buf) {
			r.buf = append(r.buf, make([]byte, len(r.buf))...)
		}
		want := int(min(int64(len(r.buf)-r.keep), r.end-r.off))
		got, err := r.f.ReadAt(r.buf[r.keep:r.keep+want], r.off)
		r.off += int64(got)
		if err != nil && !errors.Is(err, io.EOF) {
			r.done = true
			return nil, err
		}
		last := err != nil || got < want || r.off >= r.end
		data := r.buf[:r.keep+got]
		r.keep = 0
		if r.skipFirst {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				r.done = last
				continue
			}
			data, r.skipFirst = data[i+1:], false
		}
		if last {
			r.done = true
			if len(data) == 0 {
				return nil, nil
			}
			return data, nil
		}
		j := bytes.LastIndexByte(data, '\n')
		if j < 0 {
			r.keep = copy(r.buf, data)
			continue
		}
		if j+1 < len(data) {
			r.rest = data[j+1:]
		}
		return data[:j+1], nil
	}
	return nil, nil
}

// retainedSnapshot is snapshot for a data directory that must be named; the caller
// closes the segments (closeSegments).
func retainedSnapshot(dataDir string, open func(string) (*os.File, error)) ([]heldSegment, error) {
	if dataDir == "" {
		return nil, errors.New("audit: empty data dir")
	}
	return snapshot(dataDir, open), nil
}

// heldSegment is a segment opened for reading and its state when opened.
type heldSegment struct {
	f    *os.File
	info os.FileInfo
}

// snapshot opens the retained segments as they were at one moment, oldest first.
//
// Rotation renames agent.log over agent.log.1, and nothing else changes either name. So
// the current segment is opened first, then the predecessor, and then both names are
// checked to still be the files that were opened: if agent.log is unchanged no rotation
// ran in between, and the predecessor that was opened is the one that preceded it. The
// current file's size is taken when it is opened; everything up to it was written
// before that moment and is never rewritten (appends only), and the predecessor no longer
// changes at all. If rotations keep interleaving, the last attempt is made under the log
// lock held shared, which excludes rotation for the few microseconds of the opens.
func snapshot(dir string, open func(string) (*os.File, error)) []heldSegment {
	prevPath, curPath := filepath.Join(dir, PrevName), filepath.Join(dir, LogName)
	for range snapshotAttempts - 1 {
		cur := openSegment(curPath, open)
		prev := openSegment(prevPath, open)
		if unchanged(curPath, cur, open) && unchanged(prevPath, prev, open) {
			return present(prev, cur)
		}
		closeSegments(prev, cur)
	}
	unlock, err := acquire(filepath.Join(dir, LockName), false, readLockWait)
	cur := openSegment(curPath, open)
	prev := openSegment(prevPath, open)
	if err == nil {
		unlock()
	}
	// Without the lock (timeout, no lock file yet) the pair may straddle a rotation; the
	// one case that would repeat records, both names opening the same file, is folded.
	if prev.f != nil && cur.f != nil && os.SameFile(prev.info, cur.info) {
		closeSegments(cur)
		cur = heldSegment{}
	}
	return present(prev, cur)
}

// openSegment opens path and records its state; a segment that cannot be opened or is
// not a regular file is absent (zero heldSegment).
func openSegment(path string, open func(string) (*os.File, error)) heldSegment {
	f, err := open(path)
	if err != nil {
		return heldSegment{}
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return heldSegment{}
	}
	return heldSegment{f: f, info: fi}
}

// unchanged reports whether path still names the file h holds (or still names no
// readable file if h is absent). It compares open handles' identities: a name-based
// stat would let a file replaced between the stat and the comparison pass.
func unchanged(path string, h heldSegment, open func(string) (*os.File, error)) bool {
	now := openSegment(path, open)
	defer closeSegments(now)
	if h.f == nil || now.f == nil {
		return h.f == nil && now.f == nil
	}
	return os.SameFile(h.info, now.info)
}

func present(segs ...heldSegment) []heldSegment {
	var out []heldSegment
	for _, s := range segs {
		if s.f != nil {
			out = append(out, s)
		}
	}
	return out
}

func closeSegments(segs ...heldSegment) {
	for _, s := range segs {
		if s.f != nil {
			s.f.Close()
		}
	}
}

// readHeld reads the first size bytes of f, or, when size exceeds maxSegmentRead, the
// last maxSegmentRead of them starting on a whole line. A file that shrank since (a
// writer undoing a short write) yields what is still there.
func readHeld(f *os.File, size int64) ([]byte, error) {
	off, n := int64(0), size
	if size > maxSegmentRead {
		// Start one byte early: if that byte is a newline, the tail starts on a whole line.
		off, n = size-maxSegmentRead-1, maxSegmentRead+1
	}
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	buf = buf[:got]
	if off > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, nil
		}
		buf = buf[i+1:]
	}
	return buf, nil
}

// ParseLines splits a segment into records: each line that decodes as one JSON object
// (surrounding blanks and a CR ignored) is a record; everything else is skipped. Invalid UTF-8
// inside strings becomes U+FFFD.
func ParseLines(data []byte) []map[string]any {
	var out []map[string]any
	eachLine(data, func(line []byte) {
		if m := decodeLine(line); m != nil {
			out = append(out, m)
		}
	})
	return out
}

// eachLine calls fn with every line of data that could be a record: trimmed of
// surrounding blanks and starting with '{'.
func eachLine(data []byte, fn func(line []byte)) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		fn(line)
	}
}

// decodeLine parses one record. json.Unmarshal rejects trailing data, so a line
// holding two values or garbage after the object is not a record.
func decodeLine(line []byte) map[string]any {
	var m map[string]any
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return m
}
