package codex_test

import (
	"encoding/json"

	"context"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/windows-dev-agent/wda/internal/hookscope"
	"github.com/windows-dev-agent/wda/runtime"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host/codex"
	"github.com/windows-dev-agent/wda/host/internal/hosttest"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

func serve(t *testing.T, reg *tools.Registry) *hosttest.Session {
	t.Helper()
	return hosttest.Open(t, reg, runtime.Options{Host: codex.New(t.TempDir()), DataDir: "/server-default-data",
		ProjectDir: "/server-default-project", Audit: hosttest.NoAudit{}})
}

func TestToolsListMarksProjectRequired(t *testing.T) {
	reg := tools.Default()
	before := map[string][]string{}
	for _, tool := range reg.Tools() {
		before[tool.Name()] = slices.Clone(schema.In(tool).Required)
	}
	s := serve(t, reg)
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wantScoped := map[string]string{"capability_run": "cwd", "workflow_plan": "cwd", "sandbox_run": "workspace_folder",
		"ecosystem_scan": "cwd", "mcp_audit": "cwd"}
	gotScoped := map[string]string{}
	for _, lt := range res.Tools {
		tool, _ := reg.Lookup(lt.Name)
		schema := lt.InputSchema.(map[string]any)
		var required []string
		reqs, _ := schema["required"].([]any)
		for _, r := range reqs {
			required = append(required, r.(string))
		}
		arg := tool.ProjectArg()
		if arg == "" {
			if len(required) != len(before[lt.Name]) || (len(required) > 0 && !slices.Equal(required, before[lt.Name])) {
				t.Errorf("%s: required changed to %v", lt.Name, required)
			}
			continue
		}
		gotScoped[lt.Name] = arg
		if !slices.Contains(required, arg) {
			t.Errorf("%s: %s not in required %v", lt.Name, arg, required)
		}
		props := schema["properties"].(map[string]any)
		if _, ok := props[arg]; !ok {
			t.Errorf("%s: %s not in properties", lt.Name, arg)
		}
		if schema["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties %v", lt.Name, schema["additionalProperties"])
		}
	}
	if diff := cmp.Diff(wantScoped, gotScoped); diff != "" {
		t.Errorf("project-scoped tools (-want +got):\n%s", diff)
	}
	for _, tool := range reg.Tools() {
		if !slices.Equal(before[tool.Name()], schema.In(tool).Required) {
			t.Errorf("%s: the shared schema was mutated: %v", tool.Name(), schema.In(tool).Required)
		}
	}
}

func TestAdvertisedSchemaAddsMissingProperty(t *testing.T) {
	tool := tools.Define(tools.Def[hosttest.PlainIn, hosttest.Out]{
		Name: "odd", Description: "x", ProjectArg: "folder",
		Classes: tools.Classification{Base: tools.ReadOnly}, Statuses: []string{"ok"},
		Handle: func(context.Context, *tools.Env, hosttest.PlainIn) (hosttest.Out, error) {
			return hosttest.Out{}, nil
		},
	})
	shared := schema.In(tool)
	got := codex.New("").AdvertisedSchema(tool, shared)
	if got == shared {
		t.Fatal("schema returned without a copy")
	}
	p, ok := got.Properties.Get("folder")
	if !ok || p.Type != "string" || p.Description != codex.ProjectArgDescription {
		t.Fatalf("folder property = %+v", p)
	}
	if !slices.Equal(got.Required, []string{"folder"}) {
		t.Fatalf("required = %v", got.Required)
	}
	if _, ok := shared.Properties.Get("folder"); ok || len(shared.Required) != 0 {
		t.Fatal("shared schema mutated")
	}
	if _, ok := got.Properties.Get("path"); !ok {
		t.Fatal("existing property lost in the copy")
	}
	plain := tools.Define(tools.Def[hosttest.PlainIn, hosttest.Out]{
		Name: "plain", Description: "x",
		Classes: tools.Classification{Base: tools.ReadOnly}, Statuses: []string{"ok"},
		Handle: func(context.Context, *tools.Env, hosttest.PlainIn) (hosttest.Out, error) {
			return hosttest.Out{}, nil
		},
	})
	if s := schema.In(plain); codex.New("").AdvertisedSchema(plain, s) != s {
		t.Fatal("non-project tool schema should be returned as is")
	}
}

func TestBindProject(t *testing.T) {
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
	data := "/server-default-data"
	s := serve(t, hosttest.Registry())
	cases := []struct {
		name    string
		args    map[string]any
		want    string
		wantErr string
	}{
		{"absent", map[string]any{}, "", codex.MsgRequired},
		{"null", map[string]any{"cwd": nil}, "", codex.MsgRequired}, // null is absent (docs/architecture.md), as under every host
		{"blank", map[string]any{"cwd": "  "}, "", codex.MsgRequired},
		{"dot", map[string]any{"cwd": "."}, "", codex.MsgNotAbsolute},
		{"relative", map[string]any{"cwd": "sub"}, "", codex.MsgNotAbsolute},
		{"number", map[string]any{"cwd": 3}, "", "cwd must be a string"},
		{"missing", map[string]any{"cwd": filepath.Join(proj, "nope")}, "", "Not a directory: " + filepath.Join(proj, "nope")},
		{"file", map[string]any{"cwd": file}, "", "Not a directory: " + file},
		{"absolute project", map[string]any{"cwd": proj}, realProj, ""},
		{"absolute child, uncleaned", map[string]any{"cwd": proj + string(filepath.Separator) + "sub" + string(filepath.Separator) + "."}, filepath.Join(realProj, "sub"), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := s.Call(t, "scoped", c.args)
			if c.wantErr != "" {
				want := map[string]any{"status": "invalid_input", "error": c.wantErr, "execution_started": false}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("(-want +got):\n%s", diff)
				}
				return
			}
			want := map[string]any{"status": "ok", "execution_started": false, "cwd": c.want, "project_dir": c.want,
				"data_dir": data, "host": "codex"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
	// The three refusals of a missing or relative project all mention the project directory.
	for _, m := range []string{codex.MsgRequired, codex.MsgNotAbsolute, codex.MsgNotString} {
		if !strings.Contains(m, "project directory") {
			t.Errorf("%q does not mention the project directory", m)
		}
	}
	if !strings.Contains(codex.MsgNotAbsolute, "absolute path") {
		t.Error("relative refusal must mention absolute path")
	}
	// Non-project tools get the server's data dir, and no project requirement.
	got := s.Call(t, "plain", map[string]any{"path": "rel"})
	if got["status"] != "ok" || got["data_dir"] != data || got["project_dir"] != "/server-default-project" || got["path"] != "rel" {
		t.Fatalf("plain: %v", got)
	}
}

// Concurrent calls with different projects each see their own binding, and the
// server's base Env is never changed (the binding is per call, not process state).
func TestBindingIsPerCall(t *testing.T) {
	base := t.TempDir()
	var dirs []string
	for _, n := range []string{"a", "b", "c", "d"} {
		d := filepath.Join(base, n)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		r, _ := filepath.EvalSymlinks(d)
		dirs = append(dirs, r)
	}
	opts := runtime.Options{Host: codex.New(""), DataDir: "/server-default-data", ProjectDir: "/server-default-project",
		Audit: hosttest.NoAudit{}}
	s := hosttest.Open(t, hosttest.Registry(), opts)
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(d string) {
			defer wg.Done()
			got := s.Call(t, "scoped", map[string]any{"cwd": d})
			if got["project_dir"] != d || got["cwd"] != d {
				t.Errorf("call for %s saw %v", d, got)
			}
		}(dirs[i%len(dirs)])
	}
	wg.Wait()
	if os.Getenv("WINDOWS_DEV_AGENT_PROJECT_DIR") != "" || os.Getenv("WINDOWS_DEV_AGENT_HOST") != "" {
		t.Fatal("process environment was mutated")
	}
}

func TestInitialize(t *testing.T) {
	s := serve(t, tools.Default())
	init := s.InitializeResult()
	if init.ServerInfo.Name != "windows-dev-agent" || init.ServerInfo.Version != wda.Version {
		t.Fatalf("serverInfo %+v", init.ServerInfo)
	}
	for _, w := range []string{"project directory", "approval", "trust", "absolute", "plugin cache"} {
		if !strings.Contains(strings.ToLower(init.Instructions), w) {
			t.Errorf("instructions lack %q", w)
		}
	}
	for _, tool := range tools.Default().Tools() {
		if tool.ProjectArg() != "" && !strings.Contains(init.Instructions, tool.Name()) {
			t.Errorf("instructions do not name project-scoped tool %s", tool.Name())
		}
	}
}

// TestHookHandOver: when the trusted PreToolUse hook handed over the session directory
// for a call (internal/hookscope), the server contains the call in it on the directory
// it opens, so a path swapped for a link after the hook's check is refused; without a
// hand-over the call binds as named and the session is told once that the hooks are not
// running; a call of a tool without a project argument tells the same.
func TestHookHandOver(t *testing.T) {
	base := t.TempDir()
	real, _ := filepath.EvalSymlinks(base)
	proj, outside := filepath.Join(real, "project"), filepath.Join(real, "outside")
	for _, d := range []string{filepath.Join(proj, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := os.Symlink(outside, filepath.Join(proj, "swapped")) == nil
	data := t.TempDir()
	s := hosttest.Open(t, hosttest.Registry(), runtime.Options{Host: codex.New(data), DataDir: data, Audit: hosttest.NoAudit{}})
	callTool := func(name, id, session string, args map[string]any) (map[string]any, []string) {
		t.Helper()
		res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args,
			Meta: mcp.Meta{"callId": id, "sessionId": session}})
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, c := range res.Content {
			texts = append(texts, c.(*mcp.TextContent).Text)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var m map[string]any
		json.Unmarshal(b, &m)
		return m, texts
	}
	call := func(id, session, cwd string) (map[string]any, []string) {
		t.Helper()
		return callTool("scoped", id, session, map[string]any{"cwd": cwd})
	}
	handOver := func(id, session string) {
		if err := hookscope.Put(data, id, hookscope.Record{Session: session, Cwd: proj}); err != nil {
			t.Fatal(err)
		}
	}
	handOver("c1", "s")
	if m, texts := call("c1", "s", filepath.Join(proj, "sub")); m["status"] != "ok" || m["cwd"] != filepath.Join(proj, "sub") || len(texts) != 1 {
		t.Fatalf("handed-over call inside: %v %q", m, texts)
	}
	handOver("c2", "s")
	if m, _ := call("c2", "s", outside); m["status"] != "invalid_input" || m["error"] != "cwd must stay inside the session project directory: "+proj {
		t.Fatalf("handed-over call outside: %v", m)
	}
	if links {
		handOver("c3", "s")
		if m, _ := call("c3", "s", filepath.Join(proj, "swapped")); m["status"] != "invalid_input" {
			t.Fatalf("a link swapped in after the hook's check was followed: %v", m)
		}
	}
	handOver("c4", "other-session")
	if m, texts := call("c4", "s", filepath.Join(proj, "sub")); m["status"] != "ok" || len(texts) != 2 || texts[0] != codex.HooksInactiveNotice {
		t.Fatalf("a hand-over of another session must not count: %v %q", m, texts)
	}
	if _, texts := call("c5", "s", filepath.Join(proj, "sub")); len(texts) != 1 {
		t.Fatalf("the notice was repeated: %q", texts)
	}
	if _, texts := call("c6", "s2", filepath.Join(proj, "sub")); len(texts) != 2 || texts[0] != codex.HooksInactiveNotice {
		t.Fatalf("a new session was not told: %q", texts)
	}

	// A tool without a project argument: its hand-over says the hooks run; without
	// one, its session is told, once.
	plain := func(id, session string) []string {
		t.Helper()
		_, texts := callTool("plain", id, session, map[string]any{})
		return texts
	}
	handOver("p1", "s3")
	if texts := plain("p1", "s3"); len(texts) != 1 {
		t.Fatalf("a handed-over plain call was told the hooks do not run: %q", texts)
	}
	if _, ok := hookscope.Take(data, "p1"); ok {
		t.Fatal("the plain call's hand-over was not taken")
	}
	if texts := plain("p2", "s4"); len(texts) != 2 || texts[0] != codex.HooksInactiveNotice {
		t.Fatalf("a plain call without a hand-over was not told: %q", texts)
	}
	if texts := plain("p3", "s4"); len(texts) != 1 {
		t.Fatalf("the notice was repeated: %q", texts)
	}
}
