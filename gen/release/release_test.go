package release

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repo is a throw-away git repository driven through the same Git runner Check uses.
type repo struct {
	t *testing.T
	g *Git
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	g, err := NewGit(t.TempDir())
	if err != nil {
		t.Skip(err)
	}
	r := &repo{t, g}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	out, err := r.g.run(context.Background(), append([]string{"-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	if err != nil {
		r.t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

func (r *repo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.g.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) commit(msg string) string {
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func (r *repo) payload(claudeVersion string) string {
	r.write("dist/claude/.claude-plugin/plugin.json", `{"name":"windows-dev-agent","version":"`+claudeVersion+`"}`)
	r.write("dist/codex/.codex-plugin/plugin.json", `{"name":"windows-dev-agent","version":"0.5.0"}`)
	return r.commit("payload")
}

func (r *repo) index(sha string, extra ...string) string {
	b, err := Index(sha)
	if err != nil {
		r.t.Fatal(err)
	}
	r.write(IndexPath, string(b))
	for _, f := range extra {
		r.write(f, "x")
	}
	return r.commit("index")
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name  string
		build func(r *repo)
		want  string // "" = passes, else a substring of the error
	}{
		{"no index published", func(r *repo) { r.payload("0.5.0") }, ""},
		{"index on its payload", func(r *repo) { r.index(r.payload("0.5.0")) }, ""},
		{"development continues on top", func(r *repo) {
			r.index(r.payload("0.5.0"))
			r.write("README.md", "later")
			r.commit("later work")
		}, ""},
		{"index commit changes more", func(r *repo) { r.index(r.payload("0.5.0"), "other.txt") }, "must change only"},
		{"index pins another commit", func(r *repo) {
			first := r.payload("0.5.0")
			r.write("x", "y")
			r.commit("more")
			r.index(first)
		}, "but its parent is"},
		{"payload manifests disagree", func(r *repo) { r.index(r.payload("0.4.0")) }, "disagree"},
		{"index removed later", func(r *repo) {
			r.index(r.payload("0.5.0"))
			r.git("rm", "-q", IndexPath)
			r.commit("drop index")
		}, "later removed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t)
			c.build(r)
			err := Check(context.Background(), r.g)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("unexpected failure: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func TestIndexRejectsBadSHA(t *testing.T) {
	for _, sha := range []string{"", "abc", strings.Repeat("A", 40), strings.Repeat("g", 40)} {
		if _, err := Index(sha); err == nil {
			t.Errorf("Index(%q) accepted", sha)
		}
	}
}

// The repository this test runs in must satisfy its own release identity.
func TestThisRepository(t *testing.T) {
	g, err := NewGit(filepath.Join("..", ".."))
	if err != nil {
		t.Skip(err)
	}
	if _, err := g.run(context.Background(), "rev-parse", "--git-dir"); err != nil {
		t.Skip("not a git checkout")
	}
	if err := Check(context.Background(), g); err != nil {
		t.Fatal(err)
	}
}
