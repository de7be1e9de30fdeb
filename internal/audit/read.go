package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"
)

// maxSegmentRead is the most Read takes from one segment: a segment this package wrote
// is never larger. A larger file (another writer, a corrupted log) is read from its end,
// and the partial first line is dropped.
const maxSegmentRead = SegmentLimit + MaxRecordBytes

// Read returns every record retained in dataDir, oldest first: agent.log.1, then
// agent.log (discovery.md §4.6). It holds the log lock shared while reading, so no
// rotation runs mid-read: the two segments are one consistent snapshot, and on Windows
// an open reader cannot make a writer's rename fail. If the lock cannot be had within
// LockTimeout (or its file cannot be opened, e.g. a read-only data dir), it reads
// without it. A segment that is absent, vanishes after enumeration or
// cannot be read is skipped; lines that are not JSON objects are skipped; legacy records
// are kept as they are. Numbers are float64. The error is non-nil only for an empty
// dataDir: unreadable history is an empty result, not a failure.
func Read(dataDir string) ([]map[string]any, error) {
	return readWith(dataDir, readSegment, LockTimeout)
}

// readWith is Read with the segment reader and lock wait as parameters, so tests can make
// a segment vanish or fail between enumeration and reading, or the lock time out.
func readWith(dataDir string, read func(string) ([]byte, error), lockWait time.Duration) ([]map[string]any, error) {
	if dataDir == "" {
		return nil, errors.New("audit: empty data dir")
	}
	if unlock, err := acquire(filepath.Join(dataDir, LockName), false, lockWait); err == nil {
		defer unlock()
	}
	var segments []string
	for _, name := range []string{PrevName, LogName} {
		p := filepath.Join(dataDir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			segments = append(segments, p)
		}
	}
	var out []map[string]any
	for _, p := range segments {
		data, err := read(p)
		if err != nil {
			continue
		}
		out = append(out, ParseLines(data)...)
	}
	return out, nil
}

// ReadSession is Read narrowed to records whose session_id equals sessionID exactly;
// an empty sessionID returns all retained history.
func ReadSession(dataDir, sessionID string) ([]map[string]any, error) {
	all, err := Read(dataDir)
	if err != nil || sessionID == "" {
		return all, err
	}
	var out []map[string]any
	for _, ev := range all {
		if s, ok := ev["session_id"].(string); ok && s == sessionID {
			out = append(out, ev)
		}
	}
	return out, nil
}

// readSegment reads at most maxSegmentRead bytes from the end of path.
func readSegment(path string) ([]byte, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() <= maxSegmentRead {
		// The file may still grow between Stat and the read; the limit keeps the bound.
		return io.ReadAll(io.LimitReader(f, maxSegmentRead+1))
	}
	// Start one byte early: if that byte is a newline, the tail starts on a whole line.
	if _, err := f.Seek(fi.Size()-maxSegmentRead-1, io.SeekStart); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSegmentRead+1))
	if err != nil {
		return nil, err
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[i+1:], nil
	}
	return nil, nil
}

// ParseLines splits a segment into records: each line that decodes as one JSON object
// (surrounding blanks and a CR ignored) is a record; everything else is skipped. Invalid UTF-8
// inside strings becomes U+FFFD.
func ParseLines(data []byte) []map[string]any {
	var out []map[string]any
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
		if m := decodeLine(line); m != nil {
			out = append(out, m)
		}
	}
	return out
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
