// Package projectscan gathers workflow_plan's project evidence: which of the catalog's
// project_files entries (docs/catalog.md) are present in the root of the bound project
// directory. A plain entry is a file or directory name, or a glob, in the root; a
// "file#key" entry is a fact inside a small .json, .toml, .cfg or .ini file (a script
// of package.json, a [tool.ruff] table of pyproject.toml, a section of setup.cfg).
//
// It reads only through the *os.Root the pipeline bound (never by path, so nothing can
// lead it out of the project), looks only at the root directory (at most MaxEntries
// entries), never follows a link (a link where a marker would be is reported as
// skipped), opens at most MaxFiles files and reads at most MaxFileBytes of each, counted
// on bytes actually read. Its result names entries and files, never their content.
//
// It must never write, never start a process, never look below the root directory and
// never put file content into its result.
package projectscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools/internal/tomlread"
)

// Budgets of one scan.
const (
	// MaxEntries is how many entries of the root directory are examined.
	MaxEntries = 4096
	// MaxFiles is how many files are opened for facts.
	MaxFiles = 8
	// MaxFileBytes is how much of one file is read; a larger file gives no facts.
	MaxFileBytes = 128 << 10
	// maxNames bounds Result.Files.
	maxNames = 32
)

// Skipped is a root entry that matched a wanted entry but was not used, and why.
type Skipped struct{ File, Reason string }

// Result is the evidence of one scan. All lists are sorted and never nil.
type Result struct {
	// Found are the wanted entries present, as the catalog writes them.
	Found []string
	// Files are the root entries that made an entry present (at most 32).
	Files []string
	// Read are the files whose content was read for facts.
	Read []string
	// Skipped are matching entries that could not be used.
	Skipped []Skipped
}

// Scan reports which wanted project_files entries are present in root. Entries the
// catalog loader would refuse are never present.
func Scan(root *os.Root, wanted []string) Result {
	s := &scan{root: root, docs: map[string]doc{}, skipped: map[string]string{}}
	return s.run(wanted)
}

type scan struct {
	root    *os.Root
	entries []fs.DirEntry
	docs    map[string]doc // by root entry name; nil doc: unreadable (see skipped)
	opened  int
	files   []string
	read    []string
	skipped map[string]string
}

func (s *scan) run(wanted []string) Result {
	res := Result{Found: []string{}, Files: []string{}, Read: []string{}, Skipped: []Skipped{}}
	if err := s.list(); err != nil {
		res.Skipped = append(res.Skipped, Skipped{".", err.Error()})
		return res
	}
	for _, w := range wanted {
		if !slices.Contains(res.Found, w) && s.present(w) {
			res.Found = append(res.Found, w)
		}
	}
	slices.Sort(res.Found)
	slices.Sort(s.files)
	res.Files = append(res.Files, slices.Compact(s.files)...)
	if len(res.Files) > maxNames {
		res.Files = res.Files[:maxNames]
	}
	slices.Sort(s.read)
	res.Read = append(res.Read, s.read...)
	for f, why := range s.skipped {
		res.Skipped = append(res.Skipped, Skipped{f, why})
	}
	slices.SortFunc(res.Skipped, func(a, b Skipped) int { return strings.Compare(a.File, b.File) })
	return res
}

// list reads the root directory once, up to MaxEntries entries.
func (s *scan) list() error {
	d, err := s.root.Open(".")
	if err != nil {
		return errors.New("the project's root could not be opened")
	}
	defer d.Close()
	entries, err := d.ReadDir(MaxEntries + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return errors.New("the project's root could not be listed")
	}
	if len(entries) > MaxEntries {
		entries = entries[:MaxEntries]
		s.skipped["."] = fmt.Sprintf("the root has more than %d entries; only %d were examined", MaxEntries, MaxEntries)
	}
	s.entries = entries
	return nil
}

// present evaluates one entry against the listing.
func (s *scan) present(entry string) bool {
	name, key := catalog.SplitProjectFile(entry)
	if key == "" {
		pattern := strings.ToLower(name)
		hit := false
		for _, e := range s.entries {
			if ok, err := path.Match(pattern, strings.ToLower(e.Name())); err != nil || !ok {
				continue
			}
			if s.usable(e) {
				s.files = append(s.files, e.Name())
				hit = true
			}
		}
		return hit
	}
	kind := catalog.FactKind(name)
	if kind == "" || strings.ContainsAny(name, "*?[") {
		return false
	}
	e := s.find(name)
	if e == nil || !s.usable(e) || !e.Type().IsRegular() {
		if e != nil && e.IsDir() {
			s.skipped[e.Name()] = "a directory, not a file"
		}
		return false
	}
	d, ok := s.docs[e.Name()]
	if !ok {
		d = s.load(e.Name(), kind)
		s.docs[e.Name()] = d
	}
	if d != nil && d.has(key) {
		s.files = append(s.files, e.Name())
		return true
	}
	return false
}

// find is the root entry named name: the exact spelling first, else any letter case
// (Windows and macOS find files regardless of case).
func (s *scan) find(name string) fs.DirEntry {
	var fold fs.DirEntry
	for _, e := range s.entries {
		if e.Name() == name {
			return e
		}
		if fold == nil && strings.EqualFold(e.Name(), name) {
			fold = e
		}
	}
	return fold
}

// usable: regular files and directories count; a link is never followed and anything
// else (a device, a pipe, a socket) is not a project file.
func (s *scan) usable(e fs.DirEntry) bool {
	t := e.Type()
	switch {
	case t.IsRegular() || t.IsDir():
		return true
	case t&fs.ModeSymlink != 0:
		s.skipped[e.Name()] = "a symbolic link; links are not followed"
	default:
		s.skipped[e.Name()] = "a link, reparse point or special file; not followed"
	}
	return false
}

// load reads and parses one fact file; nil when it cannot be used (the reason is
// recorded, without content).
func (s *scan) load(name, kind string) doc {
	if s.opened >= MaxFiles {
		s.skipped[name] = fmt.Sprintf("not read: the scan opens at most %d files", MaxFiles)
		return nil
	}
	s.opened++
	b, err := readFile(s.root, name)
	if err != nil {
		s.skipped[name] = err.Error()
		return nil
	}
	s.read = append(s.read, name)
	d, err := parse(kind, b)
	if err != nil {
		s.skipped[name] = err.Error()
		return nil
	}
	return d
}

// readFile reads one root-level regular file through root: no-follow metadata first,
// then one open (non-blocking where a FIFO could be swapped in), the opened handle's
// own metadata, and at most MaxFileBytes+1 bytes.
func readFile(root *os.Root, name string) ([]byte, error) {
	fi, err := root.Lstat(name)
	if err != nil {
		return nil, errors.New("could not be examined")
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file; not followed")
	}
	f, err := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, errors.New("could not be opened")
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file when opened; not read")
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, errors.New("could not be read")
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("larger than the %d-byte read budget; not used", MaxFileBytes)
	}
	return b, nil
}

// doc answers whether a fact key is present in a parsed file.
type doc interface{ has(key string) bool }

var bom = []byte{0xEF, 0xBB, 0xBF}

// parse parses b as kind. Errors never quote the content.
func parse(kind string, b []byte) (doc, error) {
	b = bytes.TrimPrefix(b, bom)
	if !utf8.Valid(b) {
		return nil, errors.New("not valid UTF-8; not used")
	}
	switch kind {
	case catalog.FactJSON:
		return parseJSON(b)
	case catalog.FactTOML:
		m, err := tomlread.Parse(b)
		if err != nil {
			// tomlread's messages are a fixed description and a position, never input text.
			return nil, fmt.Errorf("not valid TOML (%v); not used", err)
		}
		return tree{m: m}, nil
	case catalog.FactINI:
		return parseINI(b), nil
	}
	return nil, errors.New("facts cannot be read from this kind of file")
}

func parseJSON(b []byte) (doc, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, errors.New("not a valid JSON object; not used")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not a valid JSON object (data after it); not used")
	}
	return tree{m: m, npm: true}, nil
}

// tree is a parsed JSON or TOML document.
type tree struct {
	m map[string]any
	// npm: a script whose command is npm init's placeholder ("Error: no test
	// specified" && exit 1) always fails, so it is no evidence of a test script.
	npm bool
}

// maxSteps bounds the lookup of one key: keys may themselves contain dots
// ("devDependencies.lodash.merge"), so the lookup tries each split.
const maxSteps = 256

func (t tree) has(key string) bool {
	steps := 0
	v, ok := lookup(t.m, key, &steps)
	if !ok || v == nil {
		return false
	}
	if s, isString := v.(string); isString {
		if strings.TrimSpace(s) == "" {
			return false
		}
		if t.npm && strings.HasPrefix(key, "scripts.") && strings.Contains(s, "no test specified") {
			return false
		}
	}
	return true
}

// lookup finds key in m, where key is a dotted path whose parts may contain dots:
// each split into a key of m and a rest is tried, shortest first.
func lookup(m map[string]any, key string, steps *int) (any, bool) {
	for i := 0; i <= len(key); i++ {
		if i < len(key) && key[i] != '.' {
			continue
		}
		if *steps++; *steps > maxSteps {
			return nil, false
		}
		v, ok := m[key[:i]]
		if !ok {
			continue
		}
		if i == len(key) {
			return v, true
		}
		if sub, isMap := v.(map[string]any); isMap {
			if found, ok := lookup(sub, key[i+1:], steps); ok {
				return found, true
			}
		}
	}
	return nil, false
}

// sections is a parsed INI file (setup.cfg, tox.ini): its section names.
type sections map[string]bool

func (s sections) has(key string) bool { return s[key] }

// parseINI collects section headers the way Python's configparser sees them: a line
// that starts, unindented, with [ and has a ]; indented lines continue a value.
func parseINI(b []byte) sections {
	out := sections{}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimRight(line, "\r\n")
		if !strings.HasPrefix(line, "[") {
			continue
		}
		if i := strings.IndexByte(line, ']'); i > 0 {
			if name := strings.TrimSpace(line[1:i]); name != "" {
				out[name] = true
			}
		}
	}
	return out
}
