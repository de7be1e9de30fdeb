// Package skills embeds the six shared SKILL.md files. Both hosts ship them verbatim;
// the generator and `wda skills` read them from here, never from disk.
package skills

import (
	"embed"
	"io/fs"
	"path"
	"slices"
	"strings"
)

//go:embed */SKILL.md
var files embed.FS

// Skill is one SKILL.md with its front matter.
type Skill struct {
	Name        string // folder name, equal to the front matter name
	Description string
	Body        []byte // the whole file
	frontName   string
}

// FrontMatterName is the name the file's front matter declares (tests compare it with
// the folder).
func (s Skill) FrontMatterName() string { return s.frontName }

// All returns the skills sorted by name.
func All() ([]Skill, error) {
	dirs, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil, err
	}
	var out []Skill
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		b, err := files.ReadFile(path.Join(d.Name(), "SKILL.md"))
		if err != nil {
			return nil, err
		}
		fm := frontMatter(string(b))
		out = append(out, Skill{Name: d.Name(), Description: fm["description"], Body: b, frontName: fm["name"]})
	}
	slices.SortFunc(out, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// frontMatter reads the flat `key: value` lines between the leading --- fences.
func frontMatter(s string) map[string]string {
	m := map[string]string{}
	rest, ok := strings.CutPrefix(s, "---\n")
	if !ok {
		return m
	}
	block, _, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return m
	}
	for _, line := range strings.Split(block, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			m[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return m
}
