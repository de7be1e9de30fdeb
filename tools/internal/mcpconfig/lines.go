package mcpconfig

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// lineIndex locates the parts of a JSON config's servers for findings: the 1-based line
// of a server's key, of the keys inside it, and of the keys and list items one level
// deeper (an env key, a header, an argument). It holds line numbers only, never a byte
// of the document. A Codex config.toml has no index: its findings carry no line.
type lineIndex struct {
	lines map[string]int
	// repeated are server keys written more than once in the servers object: the
	// decoder keeps the last one silently, so the earlier ones are shadowed.
	repeated map[string]bool
}

// pathKey joins the parts of a location below the servers object.
func pathKey(parts ...string) string { return strings.Join(parts, "\x00") }

// line is the line of the deepest located prefix of parts, 0 when none is known.
func (x *lineIndex) line(parts ...string) int {
	if x == nil {
		return 0
	}
	for n := len(parts); n > 0; n-- {
		if l := x.lines[pathKey(parts[:n]...)]; l > 0 {
			return l
		}
	}
	return 0
}

// indexDepth is how deep below the servers object locations are kept: server, field,
// then an env key, header or argument.
const indexDepth = 3

// jsonLines indexes the servers under key of the JSON document b. b is a document
// guard.DecodeObject accepted; should the token walk fail anyway, what was indexed so
// far is kept (a finding then has no line, never a wrong one).
func jsonLines(b []byte, key string) *lineIndex {
	b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
	x := &lineIndex{lines: map[string]int{}, repeated: map[string]bool{}}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	w := lineWalker{dec: dec, b: b, x: x, pos: &linePos{line: 1}}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return x
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return x
		}
		if k == key {
			// A later servers object replaces an earlier one, as in the decoded document.
			x.lines, x.repeated = map[string]int{}, map[string]bool{}
			if w.servers() != nil {
				return x
			}
			continue
		}
		if w.value(nil) != nil {
			return x
		}
	}
	return x
}

type lineWalker struct {
	dec *json.Decoder
	b   []byte
	x   *lineIndex
	pos *linePos
}

// linePos is how far lines have been counted: tokens come in file order, so counting
// on from the last one keeps the walk linear in the file's size (counting from the
// start for every key would be quadratic on a 2 MiB file of small entries).
type linePos struct{ off, line int }

// here is the line of the token just read (a key, a scalar or an opening bracket: none
// spans lines).
func (w lineWalker) here() int {
	off := max(0, min(int(w.dec.InputOffset())-1, len(w.b)))
	if off > w.pos.off {
		w.pos.line += bytes.Count(w.b[w.pos.off:off], []byte{'\n'})
		w.pos.off = off
	}
	return w.pos.line
}

// servers walks the servers object, noting server keys written twice.
func (w lineWalker) servers() error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return w.rest(tok, nil)
	}
	seen := map[string]bool{}
	for w.dec.More() {
		k, err := w.dec.Token()
		if err != nil {
			return err
		}
		name, _ := k.(string)
		if seen[name] {
			w.x.repeated[name] = true
		}
		seen[name] = true
		w.x.lines[pathKey(name)] = w.here()
		if err := w.value([]string{name}); err != nil {
			return err
		}
	}
	_, err = w.dec.Token()
	return err
}

// value walks one value at path (nil: a value outside the servers, not indexed).
func (w lineWalker) value(path []string) error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	return w.rest(tok, path)
}

// rest walks the remainder of a value whose first token is tok.
func (w lineWalker) rest(tok json.Token, path []string) error {
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	keep := path != nil && len(path) < indexDepth
	child := func(part string) []string {
		if !keep {
			return nil
		}
		return append(append([]string(nil), path...), part)
	}
	switch d {
	case '{':
		for w.dec.More() {
			k, err := w.dec.Token()
			if err != nil {
				return err
			}
			name, _ := k.(string)
			p := child(name)
			if p != nil {
				w.x.lines[pathKey(p...)] = w.here()
			}
			if err := w.value(p); err != nil {
				return err
			}
		}
	case '[':
		for i := 0; w.dec.More(); i++ {
			t, err := w.dec.Token()
			if err != nil {
				return err
			}
			p := child(strconv.Itoa(i))
			if p != nil {
				w.x.lines[pathKey(p...)] = w.here()
			}
			if err := w.rest(t, p); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	_, err := w.dec.Token()
	return err
}
