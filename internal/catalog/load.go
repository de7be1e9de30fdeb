package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/tools"
)

// MaxBytes is the largest catalog source Load accepts: 1 MiB, about 150 times the
// shipped catalog. A user catalog is read by every hook process that classifies
// an executing capability_run call, so its size bounds that work (docs/catalog.md,
// "Limits").
const MaxBytes = 1 << 20

// MaxCapabilities is the most capabilities a catalog may hold.
const MaxCapabilities = 1024

// Load parses and validates a catalog source (YAML, or JSON which is a YAML subset) in
// one pass over the document's node tree: the nodes keep the order of the ids and the
// line of every value, so no second decoder is needed to recover either
// (docs/catalog.md, "Format"). Each capability's class is the declared one, raised to
// forbidden when the shell classifier forbids the argv of any of its tools
// (docs/catalog.md, "Safety classes").
func Load(src []byte) (*Catalog, error) {
	w, entries, err := parse(src)
	if err != nil {
		return nil, err
	}
	c := &Catalog{caps: make(map[string]Capability, len(entries))}
	for _, e := range entries {
		id, err := entryID(e)
		if err != nil {
			return nil, err
		}
		cp, err := w.capability(id, e.value)
		if err != nil {
			return nil, err
		}
		c.ids = append(c.ids, id)
		c.caps[id] = cp
	}
	return c, nil
}

// Find is Get(id) of Load(src), decoding and checking only that capability: the
// document must still parse, and its ids are checked as Load checks them, but a
// mistake inside another capability goes unnoticed (Load, which the server runs at
// start-up, refuses such a catalog). The hooks use it to classify one call.
func Find(src []byte, id string) (Capability, bool, error) {
	w, entries, err := parse(src)
	if err != nil {
		return Capability{}, false, err
	}
	var found *entry
	for i, e := range entries {
		key, err := entryID(e)
		if err != nil {
			return Capability{}, false, err
		}
		if key == id && found == nil {
			found = &entries[i]
		}
	}
	if found == nil {
		return Capability{}, false, nil
	}
	cp, err := w.capability(id, found.value)
	if err != nil {
		return Capability{}, false, err
	}
	return cp, true, nil
}

// ReadFile reads a catalog file, refusing one larger than MaxBytes after reading at
// most MaxBytes+1 bytes of it, whatever size the file claims or grows to, and refusing
// anything but a regular file (a FIFO or a device could block or never end).
func ReadFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(src) > MaxBytes {
		return nil, fmt.Errorf("%s: %w", path, errTooLarge)
	}
	return src, nil
}

var errTooLarge = fmt.Errorf("capability catalog is larger than %d bytes (1 MiB), the most a catalog may have", MaxBytes)

// parse decodes src into its root mapping's entries, applying the limits.
func parse(src []byte) (*walker, []entry, error) {
	if len(src) > MaxBytes {
		return nil, nil, errTooLarge
	}
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil, errors.New("capability catalog is empty")
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("capability catalog is not valid YAML: %w", err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, nil, fmt.Errorf("capability catalog is not valid YAML: %w", err)
		}
		return nil, nil, fmt.Errorf("capability catalog must be one YAML document (another starts at line %d)", more.Line)
	}
	w := &walker{budget: 16*len(src) + 1024}
	root, err := w.deref(&doc)
	if err != nil {
		return nil, nil, err
	}
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		if root, err = w.deref(root.Content[0]); err != nil {
			return nil, nil, err
		}
	}
	if root.Kind != yaml.MappingNode {
		return nil, nil, errors.New("capability catalog root must be a mapping of capability id to capability")
	}
	entries, err := w.entries(root)
	if err != nil {
		return nil, nil, err
	}
	if len(entries) > MaxCapabilities {
		return nil, nil, fmt.Errorf("capability catalog has %d capabilities, more than the %d a catalog may have", len(entries), MaxCapabilities)
	}
	return w, entries, nil
}

// entryID is the capability id of a root entry: a non-blank string.
func entryID(e entry) (string, error) {
	if !isString(e.key) {
		return "", fmt.Errorf("capability catalog: capability id %s at line %d must be a string (quote it)", e.key.Value, e.key.Line)
	}
	if strings.TrimSpace(e.key.Value) == "" {
		return "", fmt.Errorf("capability catalog: capability id must be a non-empty string (line %d)", e.key.Line)
	}
	return e.key.Value, nil
}

// walker reads the node tree. Aliases are followed, so a document can expand far
// beyond its size; budget bounds the nodes visited to a multiple of the source's.
type walker struct{ budget int }

type entry struct{ key, value *yaml.Node }

func (w *walker) deref(n *yaml.Node) (*yaml.Node, error) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if w.budget--; w.budget < 0 {
		return nil, errors.New("capability catalog: aliases expand it beyond 16 times its size")
	}
	return n, nil
}

// entries returns a mapping's pairs in document order with merge keys (<<) applied:
// an explicit key overrides a merged one, and of two merged mappings the earlier wins.
// A key written twice is an error, as the YAML spec says.
func (w *walker) entries(m *yaml.Node) ([]entry, error) {
	var out []entry
	index := map[string]int{}
	explicit := map[string]int{}
	add := func(e entry, merged bool) {
		k := e.key.ShortTag() + "\x00" + e.key.Value
		if i, seen := index[k]; seen {
			if !merged {
				out[i].value = e.value
			}
			return
		}
		index[k] = len(out)
		out = append(out, e)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, err := w.deref(m.Content[i])
		if err != nil {
			return nil, err
		}
		v := m.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			if err := w.merge(v, add); err != nil {
				return nil, err
			}
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("capability catalog: the key at line %d must be a scalar", k.Line)
		}
		id := k.ShortTag() + "\x00" + k.Value
		if line, dup := explicit[id]; dup {
			return nil, fmt.Errorf("capability catalog is not valid YAML: line %d: key %q already defined at line %d", k.Line, k.Value, line)
		}
		explicit[id] = k.Line
		add(entry{k, v}, false)
	}
	return out, nil
}

func (w *walker) merge(v *yaml.Node, add func(entry, bool)) error {
	v, err := w.deref(v)
	if err != nil {
		return err
	}
	sources := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		sources = v.Content
	}
	for _, s := range sources {
		s, err := w.deref(s)
		if err != nil {
			return err
		}
		if s.Kind != yaml.MappingNode {
			return fmt.Errorf("capability catalog: the merge at line %d must name a mapping or a list of mappings", s.Line)
		}
		es, err := w.entries(s)
		if err != nil {
			return err
		}
		for _, e := range es {
			add(e, true)
		}
	}
	return nil
}

const allowedFields = "(allowed: description, safety, tags, tools, project_files; tools entries: name, argv)"

// fields returns a mapping's string-keyed values, refusing keys outside allowed.
func (w *walker) fields(m *yaml.Node, allowed ...string) (map[string]*yaml.Node, error) {
	es, err := w.entries(m)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*yaml.Node, len(es))
	for _, e := range es {
		if !isString(e.key) || !slices.Contains(allowed, e.key.Value) {
			return nil, fmt.Errorf("unknown field %q at line %d %s", e.key.Value, e.key.Line, allowedFields)
		}
		v, err := w.deref(e.value)
		if err != nil {
			return nil, err
		}
		if !isNull(v) { // null is absent, as in JSON
			out[e.key.Value] = v
		}
	}
	return out, nil
}

func (w *walker) capability(id string, n *yaml.Node) (Capability, error) {
	n, err := w.deref(n)
	if err != nil {
		return Capability{}, err
	}
	if n.Kind != yaml.MappingNode {
		return Capability{}, fmt.Errorf("capability %q: must be a mapping with description, safety, tags and tools (line %d)", id, n.Line)
	}
	f, err := w.fields(n, "description", "safety", "tags", "tools", "project_files")
	if err != nil {
		return Capability{}, fmt.Errorf("capability %q: %w", id, err)
	}
	cp := Capability{ID: id}
	d := f["description"]
	if d == nil || !isString(d) || strings.TrimSpace(d.Value) == "" {
		return Capability{}, fmt.Errorf("capability %q: field description is required and must be a non-empty string", id)
	}
	cp.Description = d.Value
	cp.Safety = tools.ApprovalRequired // absent: fail closed to the strictest executable class
	if s := f["safety"]; s != nil {
		switch c := tools.Class(s.Value); {
		case isString(s) && (c == tools.ReadOnly || c == tools.Reversible || c == tools.ApprovalRequired || c == tools.Forbidden):
			cp.Safety = c
		default:
			return Capability{}, fmt.Errorf("capability %q: field safety must be one of read-only, reversible, approval-required, forbidden (got %q at line %d)", id, s.Value, s.Line)
		}
	}
	if cp.Tags, err = w.strings(f["tags"], "tags"); err != nil {
		return Capability{}, fmt.Errorf("capability %q: field %w", id, err)
	}
	if cp.ProjectFiles, err = w.strings(f["project_files"], "project_files"); err != nil {
		return Capability{}, fmt.Errorf("capability %q: field %w", id, err)
	}
	for i, pf := range cp.ProjectFiles {
		if err := checkProjectFile(pf); err != nil {
			return Capability{}, fmt.Errorf("capability %q: field project_files[%d] %s", id, i, err)
		}
	}
	ts := f["tools"]
	if ts == nil || ts.Kind != yaml.SequenceNode || len(ts.Content) == 0 {
		return Capability{}, fmt.Errorf("capability %q: field tools must be a non-empty list of {name, argv}", id)
	}
	for i, tn := range ts.Content {
		t, err := w.tool(tn)
		if err != nil {
			return Capability{}, fmt.Errorf("capability %q: field tools[%d]%s", id, i, err)
		}
		cp.Tools = append(cp.Tools, t)
	}
	cp.Safety = effectiveClass(cp.Safety, cp.Tools)
	return cp, nil
}

// effectiveClass is the declared class, raised to forbidden when the shell classifier
// forbids the argv of any tool, read as the command line it becomes (classify.Argv): a
// catalog cannot make a forbidden command read-only by saying so. The classifier's
// other answers leave the declared class alone: it knows few commands well enough to
// call them read-only, and a reviewed catalog's class is what a catalog is for.
func effectiveClass(declared tools.Class, ts []Tool) tools.Class {
	for _, t := range ts {
		if c, _ := classify.Argv(t.Argv); c == tools.Forbidden {
			return tools.Forbidden
		}
	}
	return declared
}

// tool returns errors that continue "field tools[i]".
func (w *walker) tool(n *yaml.Node) (Tool, error) {
	n, err := w.deref(n)
	if err != nil {
		return Tool{}, err
	}
	if n.Kind != yaml.MappingNode {
		return Tool{}, fmt.Errorf(" must be a mapping with name and argv (line %d)", n.Line)
	}
	f, err := w.fields(n, "name", "argv")
	if err != nil {
		return Tool{}, fmt.Errorf(": %w", err)
	}
	name := f["name"]
	if name == nil || !isString(name) || strings.TrimSpace(name.Value) == "" {
		return Tool{}, errors.New(".name is required and must be a non-empty string")
	}
	if f["argv"] == nil || f["argv"].Kind != yaml.SequenceNode || len(f["argv"].Content) == 0 {
		return Tool{}, errors.New(".argv is required and must be a non-empty list of strings")
	}
	argv, err := w.strings(f["argv"], "argv")
	if err != nil {
		return Tool{}, fmt.Errorf(".%w", err)
	}
	return Tool{Name: name.Value, Argv: argv}, nil
}

// strings reads an optional list of non-empty strings; nil for an absent or empty list. Its
// errors start with the field's name.
func (w *walker) strings(n *yaml.Node, field string) ([]string, error) {
	if n == nil || n.Kind == yaml.SequenceNode && len(n.Content) == 0 {
		return nil, nil // an empty list is an absent one
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s must be a list of strings (line %d)", field, n.Line)
	}
	out := make([]string, 0, len(n.Content))
	for i, e := range n.Content {
		e, err := w.deref(e)
		if err != nil {
			return nil, err
		}
		if !isString(e) || e.Value == "" || field == "tags" && strings.TrimSpace(e.Value) == "" {
			return nil, fmt.Errorf("%s[%d] must be a non-empty string (line %d)", field, i, e.Line)
		}
		out = append(out, e.Value)
	}
	return out, nil
}

// isString: a scalar the document types as a string. `1`, `true` and `~` are not, so
// an id, a name or an argument is always exactly what was written (quote it otherwise).
func isString(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" }

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }
