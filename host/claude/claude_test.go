package claude_test

import (
	"github.com/windows-dev-agent/wda/runtime"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/host/claude"
	"github.com/windows-dev-agent/wda/host/hostenv"
	"github.com/windows-dev-agent/wda/host/internal/hosttest"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

type layout struct {
	base, proj, sub, outside, sibling, file string
	realProj, realSub                       string
	symlinks                                bool
}

func makeLayout(t *testing.T) layout {
	t.Helper()
	base := t.TempDir()
	l := layout{base: base, proj: filepath.Join(base, "project"), outside: filepath.Join(base, "outside"),
		sibling: filepath.Join(base, "project-other")}
	l.sub = filepath.Join(l.proj, "src", "pkg")
	for _, d := range []string{l.sub, l.outside, l.sibling} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	l.file = filepath.Join(l.proj, "README.md")
	if err := os.WriteFile(l.file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	if l.realProj, err = filepath.EvalSymlinks(l.proj); err != nil {
		t.Fatal(err)
	}
	if l.realSub, err = filepath.EvalSymlinks(l.sub); err != nil {
		t.Fatal(err)
	}
	// escape -> outside (a link leading out), alias -> project/src (a link staying in).
	if os.Symlink(l.outside, filepath.Join(l.proj, "escape")) == nil &&
		os.Symlink(filepath.Join(l.proj, "src"), filepath.Join(l.proj, "alias")) == nil {
		_, e1 := os.Stat(filepath.Join(l.proj, "escape"))
		_, e2 := os.Stat(filepath.Join(l.proj, "alias"))
		l.symlinks = e1 == nil && e2 == nil
	}
	return l
}

// serve serves the probes under the Claude adapter, whose project comes from the
// host's WINDOWS_DEV_AGENT_PROJECT_DIR (as internal/config reads it for claude).
func serve(t *testing.T, env map[string]string) *hosttest.Session {
	t.Helper()
	getenv := hosttest.Env(env)
	project := hostenv.Var(getenv, "WINDOWS_DEV_AGENT_PROJECT_DIR")
	return hosttest.Open(t, hosttest.Registry(), runtime.Options{
		Host: claude.New(project, getenv), DataDir: t.TempDir(), ProjectDir: "/unbound-default", Audit: hosttest.NoAudit{},
	})
}

func TestBindProjectScope(t *testing.T) {
	l := makeLayout(t)
	s := serve(t, map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": l.proj})
	outsideMsg := "cwd must stay inside the active Claude project: " + l.realProj
	cases := []struct {
		name    string
		args    map[string]any
		wantDir string // bound directory, or "" when refused
		wantErr string
		links   bool
	}{
		{name: "absent defaults to the root", args: map[string]any{}, wantDir: l.realProj},
		{name: "blank defaults to the root", args: map[string]any{"cwd": "   "}, wantDir: l.realProj},
		{name: "relative descendant resolves under the root", args: map[string]any{"cwd": filepath.Join("src", "pkg")}, wantDir: l.realSub},
		{name: "dot is the root", args: map[string]any{"cwd": "."}, wantDir: l.realProj},
		{name: "absolute descendant is accepted and normalised", args: map[string]any{"cwd": l.sub + string(filepath.Separator)}, wantDir: l.realSub},
		{name: "absolute root", args: map[string]any{"cwd": l.proj}, wantDir: l.realProj},
		{name: "relative back inside", args: map[string]any{"cwd": filepath.Join("src", "..", "src", "pkg")}, wantDir: l.realSub},
		{name: "../outside", args: map[string]any{"cwd": filepath.Join("..", "outside")}, wantErr: outsideMsg},
		{name: "absolute outside", args: map[string]any{"cwd": l.outside}, wantErr: outsideMsg},
		{name: "sibling sharing the prefix", args: map[string]any{"cwd": l.sibling}, wantErr: outsideMsg},
		{name: "relative sibling", args: map[string]any{"cwd": filepath.Join("..", "project-other")}, wantErr: outsideMsg},
		{name: "parent", args: map[string]any{"cwd": l.base}, wantErr: outsideMsg},
		{name: "symlink escape", args: map[string]any{"cwd": "escape"}, wantErr: outsideMsg, links: true},
		{name: "absolute symlink escape", args: map[string]any{"cwd": filepath.Join(l.proj, "escape")}, wantErr: outsideMsg, links: true},
		{name: "symlink staying inside", args: map[string]any{"cwd": "alias"}, wantDir: filepath.Join(l.realProj, "src"), links: true},
		{name: "missing directory", args: map[string]any{"cwd": "nope"}, wantErr: "Not a directory: " + filepath.Join(l.proj, "nope")},
		{name: "a file", args: map[string]any{"cwd": "README.md"}, wantErr: "Not a directory: " + l.file},
		{name: "number", args: map[string]any{"cwd": 5}, wantErr: "cwd must be a string"},
		{name: "null is absent", args: map[string]any{"cwd": nil}, wantDir: l.realProj}, // docs/architecture.md: null = absent
		{name: "boolean", args: map[string]any{"cwd": true}, wantErr: "cwd must be a string"},
		{name: "list", args: map[string]any{"cwd": []any{"src"}}, wantErr: "cwd must be a string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.links && !l.symlinks {
				t.Skip("symbolic links cannot be created here")
			}
			got := s.Call(t, "scoped", c.args)
			if c.wantErr != "" {
				want := map[string]any{"status": "invalid_input", "error": c.wantErr, "execution_started": false}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("refusal (-want +got):\n%s", diff)
				}
				return
			}
			if got["status"] != "ok" || got["cwd"] != c.wantDir || got["project_dir"] != c.wantDir {
				t.Fatalf("got %v, want cwd and project_dir %q", got, c.wantDir)
			}
		})
	}
}

func TestBindRootFromHost(t *testing.T) {
	l := makeLayout(t)
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"missing", map[string]string{}, claude.MsgNoProject},
		{"blank", map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": "  "}, claude.MsgNoProject},
		{"unexpanded placeholder", map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": "${CLAUDE_PROJECT_DIR}"}, claude.MsgNoProject},
		{"a file", map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": l.file}, "Not a directory: " + l.file},
		{"missing dir", map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": filepath.Join(l.base, "gone")}, "Not a directory: " + filepath.Join(l.base, "gone")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := serve(t, c.env).Call(t, "scoped", map[string]any{})
			if got["status"] != "invalid_input" || got["error"] != c.want {
				t.Fatalf("got %v, want invalid_input %q", got, c.want)
			}
		})
	}
	if !l.symlinks {
		return
	}
	// A root given through a link is resolved; paths under either spelling bind.
	link := filepath.Join(l.base, "via-link")
	if err := os.Symlink(l.proj, link); err != nil {
		t.Fatal(err)
	}
	s := serve(t, map[string]string{"WINDOWS_DEV_AGENT_PROJECT_DIR": link})
	for _, arg := range []any{"", filepath.Join(link, "src", "pkg"), l.sub} {
		got := s.Call(t, "scoped", map[string]any{"cwd": arg})
		want := l.realSub
		if arg == "" {
			want = l.realProj
		}
		if got["cwd"] != want {
			t.Errorf("cwd %v bound to %v, want %s", arg, got["cwd"], want)
		}
	}
}

// Non-project tools pass through unchanged, even without a host project.
func TestNonProjectToolPassesThrough(t *testing.T) {
	s := serve(t, map[string]string{})
	got := s.Call(t, "plain", map[string]any{"path": "../../anything"})
	want := map[string]any{"status": "ok", "execution_started": false, "path": "../../anything",
		"project_dir": "/unbound-default", "data_dir": got["data_dir"], "host": "claude"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	// The shipped package_install is not project-scoped: no project, no refusal.
	real := hosttest.Open(t, tools.Default(), runtime.Options{Host: claude.New("", nil),
		DataDir: t.TempDir(), ProjectDir: t.TempDir(), Audit: hosttest.NoAudit{}})
	res := real.Call(t, "package_install", map[string]any{"package_id": "Git.Git", "execute": false})
	if res["status"] == "invalid_input" {
		t.Fatalf("package_install refused by the Claude binding: %v", res)
	}
}

func TestAdapterSurface(t *testing.T) {
	h := claude.New("", nil)
	if h.Name() != "claude" || h.Instructions() != "" {
		t.Fatalf("name %q instructions %q", h.Name(), h.Instructions())
	}
	for _, tool := range tools.Default().Tools() {
		if s := schema.In(tool); h.AdvertisedSchema(tool, s) != s {
			t.Errorf("%s: Claude must advertise the shared schema unchanged", tool.Name())
		}
	}
}
