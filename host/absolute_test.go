package host_test

import (
	"context"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/copilot"
	"github.com/windows-dev-agent/wda/host/internal/hosttest"
	"github.com/windows-dev-agent/wda/host/mcpb"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

// absoluteHosts are the adapters that bind with host.Absolute.
func absoluteHosts() []struct {
	h       host.Host
	binding host.Absolute
} {
	return []struct {
		h       host.Host
		binding host.Absolute
	}{{copilot.New(), copilot.Binding}, {mcpb.New(), mcpb.Binding}}
}

// absCase is one project argument and the directory it binds to, or the refusal.
type absCase struct {
	name    string
	args    map[string]any
	want    string
	wantErr string
}

func TestAbsoluteBind(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	proj := filepath.Join(base, "project")
	if err := os.MkdirAll(filepath.Join(proj, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(proj, "f.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	realProj, _ := filepath.EvalSymlinks(proj)
	for _, ah := range absoluteHosts() {
		t.Run(ah.h.Name(), func(t *testing.T) {
			t.Parallel()
			s := hosttest.Open(t, hosttest.Registry(), runtime.Options{Host: ah.h, DataDir: "/data",
				ProjectDir: "/server-default-project", Audit: hosttest.NoAudit{}})
			b := ah.binding
			cases := []absCase{
				{"absent", map[string]any{}, "", b.MsgRequired()},
				{"blank", map[string]any{"cwd": "  "}, "", b.MsgRequired()},
				{"dot", map[string]any{"cwd": "."}, "", b.MsgNotAbsolute()},
				{"relative", map[string]any{"cwd": "sub"}, "", b.MsgNotAbsolute()},
				{"unexpanded placeholder", map[string]any{"cwd": "${COPILOT_PROJECT_DIR}"}, "", b.MsgNotAbsolute()},
				{"number", map[string]any{"cwd": 3}, "", "cwd must be a string"},
				{"missing", map[string]any{"cwd": filepath.Join(proj, "nope")}, "", "Not a directory: " + filepath.Join(proj, "nope")},
				{"file", map[string]any{"cwd": file}, "", "Not a directory: " + file},
				{"absolute project", map[string]any{"cwd": proj}, realProj, ""},
				{"absolute child, uncleaned", map[string]any{"cwd": proj + string(filepath.Separator) + "sub" + string(filepath.Separator) + "."}, filepath.Join(realProj, "sub"), ""},
			}
			if goruntime.GOOS == "windows" {
				// Drive-relative and rooted-without-drive paths would resolve against the
				// server's own current directory or drive.
				cases = append(cases,
					absCase{"drive-relative", map[string]any{"cwd": "C:project"}, "", b.MsgNotAbsolute()},
					absCase{"rooted without a drive", map[string]any{"cwd": `\project`}, "", b.MsgNotAbsolute()})
			}
			for _, c := range cases {
				got := s.Call(t, "scoped", c.args)
				if c.wantErr != "" {
					want := map[string]any{"status": "invalid_input", "error": c.wantErr, "execution_started": false}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s (-want +got):\n%s", c.name, diff)
					}
					continue
				}
				want := map[string]any{"status": "ok", "execution_started": false, "cwd": c.want, "project_dir": c.want,
					"data_dir": "/data", "host": ah.h.Name()}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", c.name, diff)
				}
			}
			// A tool that is not project-scoped needs no project.
			got := s.Call(t, "plain", map[string]any{"path": "rel"})
			if got["status"] != "ok" || got["project_dir"] != "/server-default-project" {
				t.Errorf("plain: %v", got)
			}
			for _, m := range []string{b.MsgRequired(), b.MsgNotAbsolute(), b.MsgNotString()} {
				if !strings.Contains(strings.ToLower(m), "project directory") {
					t.Errorf("%q does not name the project directory", m)
				}
			}
		})
	}
}

// tools/list marks every project argument required, and the shared schemas stay as
// they were (the validator and the other hosts use them).
func TestAbsoluteAdvertisesProjectRequired(t *testing.T) {
	t.Parallel()
	reg := tools.Default()
	before := map[string][]string{}
	for _, tool := range reg.Tools() {
		before[tool.Name()] = slices.Clone(schema.In(tool).Required)
	}
	for _, ah := range absoluteHosts() {
		s := hosttest.Open(t, reg, runtime.Options{Host: ah.h, DataDir: t.TempDir(), Audit: hosttest.NoAudit{}})
		res, err := s.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		scoped := map[string]string{}
		for _, lt := range res.Tools {
			tool, _ := reg.Lookup(lt.Name)
			in := lt.InputSchema.(map[string]any)
			var required []string
			list, _ := in["required"].([]any)
			for _, r := range list {
				required = append(required, r.(string))
			}
			if arg := tool.ProjectArg(); arg != "" {
				scoped[lt.Name] = arg
				if !slices.Contains(required, arg) {
					t.Errorf("%s %s: %s not required: %v", ah.h.Name(), lt.Name, arg, required)
				}
			} else if !slices.Equal(required, before[lt.Name]) {
				t.Errorf("%s %s: required changed to %v", ah.h.Name(), lt.Name, required)
			}
		}
		if len(scoped) == 0 {
			t.Fatalf("%s: no project-scoped tool listed", ah.h.Name())
		}
		init := s.InitializeResult()
		for _, w := range []string{"absolute", "project directory", "approval", "forbidden"} {
			if !strings.Contains(strings.ToLower(init.Instructions), w) {
				t.Errorf("%s instructions lack %q", ah.h.Name(), w)
			}
		}
	}
	for _, tool := range reg.Tools() {
		if !slices.Equal(before[tool.Name()], schema.In(tool).Required) {
			t.Errorf("%s: the shared schema was mutated: %v", tool.Name(), schema.In(tool).Required)
		}
	}
}

func TestAbsoluteAddsAMissingProperty(t *testing.T) {
	t.Parallel()
	tool := tools.Define(tools.Def[hosttest.PlainIn, hosttest.Out]{
		Name: "odd", Description: "x", ProjectArg: "folder",
		Classes: tools.Classification{Base: tools.ReadOnly}, Statuses: []string{"ok"},
		Handle: func(context.Context, *tools.Env, hosttest.PlainIn) (hosttest.Out, error) {
			return hosttest.Out{}, nil
		},
	})
	shared := schema.In(tool)
	got := copilot.Binding.AdvertisedSchema(tool, shared)
	if got == shared {
		t.Fatal("schema returned without a copy")
	}
	p, ok := got.Properties.Get("folder")
	want := "Absolute current Copilot project directory; never the plugin folder."
	if !ok || p.Type != "string" || p.Description != want {
		t.Fatalf("folder property = %+v, want description %q", p, want)
	}
	if !slices.Equal(got.Required, []string{"folder"}) {
		t.Fatalf("required = %v", got.Required)
	}
	if _, ok := shared.Properties.Get("folder"); ok || len(shared.Required) != 0 {
		t.Fatal("shared schema mutated")
	}
}
