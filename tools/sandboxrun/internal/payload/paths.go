package payload

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// errListShape is the message for a blank or malformed entry (docs/tools/sandbox_run.md, staging).
var errListShape = errors.New("payload_paths must be a list of non-empty workspace-relative paths")

// parsePath splits one payload path into its components, refusing anything that could
// name a node outside the workspace. "" and "." components are dropped, so "." (or
// "./") is the workspace itself and yields no components.
func parsePath(p string) ([]string, error) {
	if strings.TrimSpace(p) == "" {
		return nil, errListShape
	}
	if strings.IndexByte(p, 0) >= 0 {
		return nil, fmt.Errorf("payload path contains a NUL character: %q", p)
	}
	if filepath.IsAbs(p) || filepath.VolumeName(p) != "" || strings.ContainsAny(p[:1], splitSeparators) {
		return nil, fmt.Errorf("payload path must stay inside the workspace: %s", p)
	}
	var comps []string
	for _, c := range strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune(splitSeparators, r) }) {
		switch c {
		case ".":
			continue
		case "..":
			return nil, fmt.Errorf("payload path must stay inside the workspace: %s", p)
		}
		if err := checkComponent(c); err != nil {
			return nil, err
		}
		comps = append(comps, c)
	}
	return comps, nil
}

// overlaps reports whether one component tuple equals or is a prefix of the other.
func overlaps(a, b []string) bool {
	n := min(len(a), len(b))
	return slices.Equal(foldAll(a[:n]), foldAll(b[:n]))
}

func foldAll(comps []string) []string {
	if !foldCase {
		return comps
	}
	out := make([]string, len(comps))
	for i, c := range comps {
		out[i] = strings.ToUpper(c)
	}
	return out
}

// relString is the display form of a component tuple: slash-separated, "." for the
// workspace itself.
func relString(comps []string) string {
	if len(comps) == 0 {
		return "."
	}
	return strings.Join(comps, "/")
}
