package catalog

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Fact kinds: how the file of a "file#key" project_files entry is read.
const (
	FactJSON = "json" // *.json: key is a path of object keys (package.json#scripts.test)
	FactTOML = "toml" // *.toml: key is a path of tables or keys (pyproject.toml#tool.ruff)
	FactINI  = "ini"  // *.cfg, *.ini: key is a section name (setup.cfg#tool:pytest)
)

// maxProjectFile bounds one entry; real ones are a file name and a short key.
const maxProjectFile = 200

// SplitProjectFile splits a project_files entry into the root-level file name (or glob)
// and the fact key, which is empty for a plain presence entry.
func SplitProjectFile(entry string) (name, key string) {
	name, key, _ = strings.Cut(entry, "#")
	return name, key
}

// FactKind is how a fact-bearing file is parsed, by its extension; "" when facts cannot
// be read from a file of that name.
func FactKind(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".json":
		return FactJSON
	case ".toml":
		return FactTOML
	case ".cfg", ".ini":
		return FactINI
	}
	return ""
}

// checkProjectFile validates one project_files entry (docs/catalog.md): a name in the
// project's root (a glob of path.Match, never a path), optionally followed by #key, in
// which case the name is literal and of a kind FactKind can read. Its errors continue
// "field project_files[i]".
func checkProjectFile(entry string) error {
	if strings.TrimSpace(entry) == "" || strings.TrimSpace(entry) != entry {
		return errors.New("must be a non-empty string without surrounding spaces")
	}
	if len(entry) > maxProjectFile {
		return fmt.Errorf("must be at most %d bytes", maxProjectFile)
	}
	name, key, hasKey := strings.Cut(entry, "#")
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("must start with a file name in the project's root (got %q)", name)
	case strings.ContainsAny(name, "/\\:\x00"):
		// ':' is a drive or an NTFS alternate data stream on Windows, never a plain name.
		return fmt.Errorf("must name a file in the project's root, not a path (got %q)", name)
	}
	if _, err := path.Match(name, ""); err != nil {
		return fmt.Errorf("is not a valid file-name pattern (got %q)", name)
	}
	if !hasKey {
		return nil
	}
	if strings.ContainsAny(name, "*?[") {
		return fmt.Errorf("names a fact (#%s) of a pattern; facts need a literal file name (got %q)", key, name)
	}
	if FactKind(name) == "" {
		return fmt.Errorf("names a fact of %q, but facts can only be read from .json, .toml, .cfg and .ini files", name)
	}
	if key == "" || strings.TrimSpace(key) != key || strings.HasPrefix(key, ".") || strings.HasSuffix(key, ".") ||
		strings.Contains(key, "..") || strings.ContainsAny(key, "#\x00") {
		return fmt.Errorf("has an invalid key after # (a non-empty dotted path without empty parts; got %q)", key)
	}
	return nil
}
