// Package skills embeds the six shared SKILL.md files. Both hosts ship them verbatim;
// the generator and `wda skills` read them from here, never from disk.
package skills

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
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
		fm, err := frontMatter(string(b))
		if err != nil {
			return nil, fmt.Errorf("skill %s: %w", d.Name(), err)
		}
		out = append(out, Skill{Name: d.Name(), Description: fm.Description, Body: b, frontName: fm.Name})
	}
	slices.SortFunc(out, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// frontMatter parses the YAML between the leading --- fences the way the hosts do, so a
// quoted or folded description reads here as it reads there. Keys other than name and
// description are refused: none of the hosts' optional keys is shared by all of them.
func frontMatter(s string) (frontMatterFields, error) {
	var fm frontMatterFields
	rest, ok := strings.CutPrefix(strings.ReplaceAll(s, "\r\n", "\n"), "---\n")
	if !ok {
		return fm, errors.New("does not start with a --- front matter fence")
	}
	block, _, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return fm, errors.New("front matter has no closing --- fence")
	}
	if err := yaml.UnmarshalStrict([]byte(block), &fm); err != nil {
		return fm, fmt.Errorf("front matter: %w", err)
	}
	return fm, nil
}

type frontMatterFields struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}
