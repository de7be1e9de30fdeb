package skills

import (
	"slices"
	"testing"
)

func TestSixSkillsWithFrontMatter(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range all {
		names = append(names, s.Name)
		if s.FrontMatterName() != s.Name {
			t.Errorf("%s: front matter name %q differs from its folder", s.Name, s.FrontMatterName())
		}
		if len(s.Description) < 40 {
			t.Errorf("%s: description must say when to use the skill, got %q", s.Name, s.Description)
		}
	}
	want := []string{"ecosystem-defrag", "env-inspect", "package-install", "sandbox-run", "win-setup", "workflow-plan"}
	if !slices.Equal(names, want) {
		t.Fatalf("skills = %v, want %v", names, want)
	}
}
