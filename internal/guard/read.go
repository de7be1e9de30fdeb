package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"unicode/utf8"

	"github.com/windows-dev-agent/wda/tools"
)

// Limit is the config read budget in bytes (2 MiB, docs/safety/project-reads.md).
const Limit = 2 << 20

// ErrTooLarge is returned (wrapped) when a file holds more than Limit bytes.
var ErrTooLarge = fmt.Errorf("JSON config exceeds %d byte read limit", Limit)

// ReadProject reads a project file through the project's held directory: the walk of
// Check, then the final component opened once relative to its held parent without
// following it, then at most Limit+1 bytes through that handle. The file must be a
// regular file with a single hard link. A missing file gives an error satisfying
// errors.Is(err, fs.ErrNotExist).
func ReadProject(p *tools.Project, rel string) ([]byte, error) {
	return defaultWalker.read(p, rel)
}

func (w walker) read(p *tools.Project, rel string) ([]byte, error) {
	a, err := w.walk(p, rel, Shared)
	if err != nil {
		return nil, err
	}
	defer a.close()
	missing := &fs.PathError{Op: "open", Path: a.abs, Err: fs.ErrNotExist}
	if a.parent == nil {
		return nil, missing
	}
	// The no-follow metadata first, so nothing but a regular file is ever opened (a
	// device's open can have effects); the open's own metadata then decides.
	info, err := a.parent.Stat(a.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, missing
	case err != nil:
		return nil, metadataErr(a.abs, err)
	}
	if err := regular(a.abs, info); err != nil {
		return nil, err
	}
	f, err := a.parent.OpenFile(a.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, missing
	case errors.Is(err, ErrLink):
		return nil, &LinkError{Path: a.abs}
	case errors.Is(err, ErrNotRegular):
		return nil, fmt.Errorf("not a regular file: %s", a.abs)
	case err != nil:
		return nil, fmt.Errorf("could not be opened: %s: %v", a.abs, unwrapPath(err))
	}
	defer f.Close()
	if err := regular(a.abs, f.Info()); err != nil {
		return nil, err
	}
	return readBounded(f)
}

// regular refuses what a guarded read must not read: a link, anything that is not a
// regular file, and a regular file with more than one hard link.
func regular(path string, info Info) error {
	switch {
	case info.Kind == KindLink:
		return &LinkError{Path: path}
	case info.Kind != KindFile:
		return fmt.Errorf("not a regular file: %s", path)
	case info.Links > 1:
		return &HardLinkError{Path: path}
	}
	return nil
}

// ReadProjectJSON is ReadProject followed by DecodeObject.
func ReadProjectJSON(p *tools.Project, rel string) (map[string]any, error) {
	b, err := ReadProject(p, rel)
	if err != nil {
		return nil, err
	}
	return DecodeObject(b)
}

// ReadHost is the plain bounded read of a file outside any project (host configs, an
// explicit config_path): links are followed, but the file must be a regular file and at
// most Limit bytes are accepted, counted on bytes read.
func ReadHost(path string) ([]byte, error) {
	f, err := openPlain(path)
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
//
// Its errors never carry a byte of the document: a syntax error is reported by line and
// column only, because the document may be anything a caller named (a config holding
// tokens, or /etc/shadow given as config_path).
func DecodeObject(b []byte) (map[string]any, error) {
	b = bytes.TrimPrefix(b, bom)
	if !utf8.Valid(b) {
		return nil, errors.New("config is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonError(b, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := int(dec.InputOffset())
		for off < len(b) && (b[off] == ' ' || b[off] == '\t' || b[off] == '\r' || b[off] == '\n') {
			off++
		}
		line, col := Position(b, off)
		return nil, fmt.Errorf("invalid JSON: data after the top-level value at line %d, column %d", line, col)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("root JSON value is not an object")
	}
	return m, nil
}

// jsonError words a decoding failure from a fixed vocabulary plus a position.
func jsonError(b []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		line, col := Position(b, len(b))
		return fmt.Errorf("invalid JSON: unexpected end of input at line %d, column %d", line, col)
	case errors.As(err, &se):
		// Offset counts the bytes read, the offending one included.
		line, col := Position(b, int(se.Offset)-1)
		return fmt.Errorf("invalid JSON: syntax error at line %d, column %d", line, col)
	}
	return errors.New("invalid JSON")
}

// Position is the 1-based line and column (in characters) of byte offset off in b, for
// error messages that must locate a problem without quoting it.
func Position(b []byte, off int) (line, col int) {
	off = max(0, min(off, len(b)))
	line, col = 1, 1
	for i := 0; i < off; {
		if b[i] == '\n' {
			line, col = line+1, 1
			i++
			continue
		}
		_, n := utf8.DecodeRune(b[i:])
		i += n
		col++
	}
	return line, col
}
