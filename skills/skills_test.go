package skills

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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

func TestFrontMatter(t *testing.T) {
	tests := []struct {
		name, src       string
		wantName, wantD string
		wantErr         string
	}{
		{"plain", "---\nname: a\ndescription: Use it at 10:30, or when asked.\n---\nbody", "a", "Use it at 10:30, or when asked.", ""},
		{"colon space is not YAML", "---\nname: a\ndescription: Use it when: always.\n---\n", "", "", "mapping values"},
		{"quoted", "---\nname: a\ndescription: \"Say \\\"hi\\\" first\"\n---\n", "a", `Say "hi" first`, ""},
		{"folded", "---\nname: a\ndescription: >-\n  one\n  two\n---\n", "a", "one two", ""},
		{"crlf", "---\r\nname: a\r\ndescription: d\r\n---\r\n", "a", "d", ""},
		{"no fence", "name: a\n", "", "", "does not start"},
		{"unclosed", "---\nname: a\n", "", "", "no closing"},
		{"unknown key", "---\nname: a\ndescription: d\nlicense: MIT\n---\n", "", "", "unknown field"},
		{"not yaml", "---\nname: [a\n---\n", "", "", "front matter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, err := frontMatter(tt.src)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(frontMatterFields{Name: tt.wantName, Description: tt.wantD}, fm); diff != "" {
				t.Errorf("front matter (-want +got):\n%s", diff)
			}
		})
	}
}
