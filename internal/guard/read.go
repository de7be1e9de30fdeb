package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"unicode/utf8"
)

// Limit is the JSON config read budget in bytes (2 MiB, tools.md §6.5).
const Limit = 2 << 20

// ErrTooLarge is returned (wrapped) when a file holds more than Limit bytes.
var ErrTooLarge = fmt.Errorf("JSON config exceeds %d byte read limit", Limit)

// afterCheck runs between the containment walk and the open. Tests use it to swap a
// parent directory for a link exactly in that window.
var afterCheck = func() {}

// ReadProject reads a project file: Check, then one verified open, then at most
// Limit+1 bytes through that handle. A missing file gives an error satisfying
// errors.Is(err, fs.ErrNotExist).
func ReadProject(root, rel string) ([]byte, error) {
	t, exists, err := check(root, rel)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, &fs.PathError{Op: "open", Path: t.abs, Err: fs.ErrNotExist}
	}
	afterCheck()
	f, err := sys.openUnder(t)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f)
}

// ReadProjectJSON is ReadProject followed by DecodeObject.
func ReadProjectJSON(root, rel string) (map[string]any, error) {
	b, err := ReadProject(root, rel)
	if err != nil {
		return nil, err
	}
	return DecodeObject(b)
}

// ReadHost is the plain bounded read of a file outside any project (host configs, an
// explicit config_path): links are followed, but the file must be a regular file and at
// most Limit bytes are accepted, counted on bytes read.
func ReadHost(path string) ([]byte, error) {
	f, err := sys.openPlain(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("metadata could not be established for %s: %w", path, unwrapPath(err))
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file: %s", path)
	}
	return readBounded(f)
}

// ReadHostJSON is ReadHost followed by DecodeObject.
func ReadHostJSON(path string) (map[string]any, error) {
	b, err := ReadHost(path)
	if err != nil {
		return nil, err
	}
	return DecodeObject(b)
}

// readBounded reads at most Limit+1 bytes; reading one byte more than allowed is how an
// oversized file is told apart from one of exactly Limit bytes, whatever stat says.
func readBounded(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, Limit+1))
	if err != nil {
		return nil, fmt.Errorf("read failed: %w", unwrapPath(err))
	}
	if len(b) > Limit {
		return nil, ErrTooLarge
	}
	return b, nil
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// DecodeObject checks UTF-8 (a leading byte order mark is skipped) and parses one JSON
// value whose root must be an object. Numbers stay json.Number so no value is rounded.
func DecodeObject(b []byte) (map[string]any, error) {
	b = bytes.TrimPrefix(b, bom)
	if !utf8.Valid(b) {
		return nil, errors.New("config is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the top-level value")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("root JSON value is not an object")
	}
	return m, nil
}
