package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/host/claude"
	"github.com/windows-dev-agent/wda/host/codex"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
)

type probeIn struct {
	Flag    bool       `json:"flag,omitempty" jsonschema:"default=false"`
	Count   int        `json:"count,omitempty" jsonschema:"minimum=1,maximum=600,default=120"`
	Name    string     `json:"name" jsonschema:"required,minLength=1,maxLength=8"`
	Mode    string     `json:"mode,omitempty" jsonschema:"enum=a,enum=b,default=a"`
	Items   []string   `json:"items,omitempty" jsonschema:"maxItems=2"`
	Free    string     `json:"free,omitempty"`
	ID      string     `json:"id,omitempty" jsonschema:"pattern=^[a-z]+$"`
	Ratio   float64    `json:"ratio,omitempty" jsonschema:"minimum=0,maximum=1"`
	Cwd     string     `json:"cwd,omitempty"`
	Danger  bool       `json:"danger,omitempty"`
	Execute bool       `json:"execute,omitempty"`
	Tags    []string   `json:"tags,omitempty" jsonschema:"minItems=1"`
	Unique  []string   `json:"unique,omitempty" jsonschema:"uniqueItems=true"`
	Opts    *probeOpts `json:"opts,omitempty"`
}

// probeOpts is a nested object, validated like the top level.
type probeOpts struct {
	Key   string `json:"key" jsonschema:"required,minLength=1"`
	Level int    `json:"level,omitempty" jsonschema:"minimum=1"`
}

type probeOut struct {
	tools.Status
	Seen probeIn `json:"seen"`
}

// recorder remembers what reached the handler and the audit sink.
type recorder struct {
	mu     sync.Mutex
	calls  []probeIn
	recs   []runtime.CallRecord
	status string // the status the handler answers ("ok" unless set)
}

func (r *recorder) RecordCall(_ context.Context, rec runtime.CallRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

func (r *recorder) tool() tools.Tool {
	return tools.Define(tools.Def[probeIn, probeOut]{
		Name: "probe", Order: 1, Title: "Probe", Description: "test tool", ProjectArg: "cwd",
		Classes: tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
			{When: tools.WhenTrue("danger"), Class: tools.Forbidden},
			{When: tools.WhenTrue("execute"), Class: tools.ApprovalRequired},
		}},
		Starts:   tools.WhenTrue("execute"),
		Statuses: []string{"ok"},
		Handle: func(_ context.Context, env *tools.Env, in probeIn) (probeOut, error) {
			r.mu.Lock()
			r.calls = append(r.calls, in)
			status := r.status
			r.mu.Unlock()
			if status == "" {
				status = "ok"
			}
			return probeOut{Status: tools.Status{Status: status}, Seen: in}, nil
		},
	})
}

func serve(t *testing.T, rec *recorder, opts runtime.Options) *mcp.ClientSession {
	t.Helper()
	reg := tools.New()
	reg.Register(rec.tool())
	opts.Audit = rec
	return mcptest.Connect(t, runtime.NewServer(reg, opts))
}

// TestPipeline walks every step: validation (the project's rules and the library's),
// defaults, the project binding on validated values, classification and blocking. Every
// refusal is a result, never a JSON-RPC error, and only the calls that pass reach the
// handler.
func TestPipeline(t *testing.T) {
	t.Parallel()
	project := testkit.TempDir(t)
	if err := os.Mkdir(filepath.Join(project, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	cs := serve(t, rec, runtime.Options{DataDir: t.TempDir(), ProjectDir: project})
	many := map[string]any{"name": "x"}
	for i := range 32 {
		many[strings.Repeat("k", i+1)] = 1
	}
	manyJSON, _ := json.Marshal(many)
	invalid := func(msg string) map[string]any {
		return map[string]any{"status": "invalid_input", "error": msg, "execution_started": false}
	}
	cases := []struct {
		name    string
		args    string
		want    map[string]any // structured result (a subset for handled calls)
		isError bool
		handled bool
	}{
		{name: "defaults materialised, project bound", args: `{"name":"n"}`, handled: true,
			want: map[string]any{"status": "ok", "seen": map[string]any{"count": 120.0, "name": "n", "mode": "a", "cwd": project}}},
		{name: "relative project argument bound under the root", args: `{"name":"n","cwd":"sub"}`, handled: true,
			want: map[string]any{"status": "ok", "seen": map[string]any{"count": 120.0, "name": "n", "mode": "a", "cwd": filepath.Join(project, "sub")}}},
		{name: "boolean as string", args: `{"name":"n","flag":"false"}`, isError: true, want: invalid("flag must be a boolean")},
		{name: "integer literal with fraction", args: `{"name":"n","count":120.0}`, isError: true, want: invalid("count must be an integer")},
		{name: "integer below minimum", args: `{"name":"n","count":0}`, isError: true, want: invalid("count must be >= 1")},
		{name: "integer above maximum", args: `{"name":"n","count":601}`, isError: true, want: invalid("count must be <= 600")},
		{name: "number above maximum", args: `{"name":"n","ratio":1.5}`, isError: true, want: invalid("ratio must be <= 1")},
		{name: "unknown arguments sorted", args: `{"name":"n","zz":1,"aa":2}`, isError: true, want: invalid("unknown tool argument(s): aa, zz")},
		{name: "missing required", args: `{}`, isError: true, want: invalid("missing required tool argument(s): name")},
		{name: "declared minLength", args: `{"name":""}`, isError: true, want: invalid("name must not be empty")},
		{name: "declared maxLength", args: `{"name":"123456789"}`, isError: true, want: invalid("name must be at most 8 characters")},
		{name: "declared pattern", args: `{"name":"n","id":"A1"}`, isError: true, want: invalid("id must match the pattern ^[a-z]+$")},
		{name: "global string bound", args: `{"name":"n","free":"` + strings.Repeat("x", 32769) + `"}`, isError: true, want: invalid("free must be at most 32768 characters")},
		{name: "declared maxItems", args: `{"name":"n","items":["a","b","c"]}`, isError: true, want: invalid("items must have at most 2 items")},
		{name: "array item type", args: `{"name":"n","items":["a",1]}`, isError: true, want: invalid("items[1] must be a string")},
		{name: "declared minItems", args: `{"name":"n","tags":[]}`, isError: true, want: invalid("tags must have at least 1 item")},
		{name: "nested object: missing required", args: `{"name":"n","opts":{}}`, isError: true, want: invalid("missing required field(s): opts.key")},
		{name: "nested object: minimum", args: `{"name":"n","opts":{"key":"k","level":0}}`, isError: true, want: invalid("opts.level must be >= 1")},
		{name: "nested object: unknown member", args: `{"name":"n","opts":{"key":"k","zz":1}}`, isError: true, want: invalid("unknown field(s): opts.zz")},
		{name: "a keyword only the library enforces (uniqueItems)", args: `{"name":"n","unique":["a","a"]}`, isError: true, want: invalid("tool arguments do not match the input schema: /properties/unique: uniqueItems: array items 1 and 0 are equal")},
		{name: "enum", args: `{"name":"n","mode":"c"}`, isError: true, want: invalid("mode must be one of [a, b]")},
		{name: "too many fields", args: string(manyJSON), isError: true, want: invalid("too many tool arguments: 33 (at most 32)")},
		{name: "null arguments", args: `null`, isError: true, want: invalid("tool arguments must be an object")},
		{name: "project argument of the wrong type is a validation error", args: `{"name":"n","cwd":5}`, isError: true, want: invalid("cwd must be a string")},
		{name: "project argument outside", args: `{"name":"n","cwd":"/"}`, isError: true, want: invalid("cwd must stay inside the project: " + project)},
		{name: "project argument missing inside", args: `{"name":"n","cwd":"gone"}`, isError: true, want: invalid("Not a directory: " + filepath.Join(project, "gone"))},
		{name: "null for optional arguments is absent", args: `{"name":"n","cwd":null,"count":null,"mode":null,"items":null,"opts":null,"flag":null}`, handled: true,
			want: map[string]any{"status": "ok", "seen": map[string]any{"count": 120.0, "name": "n", "mode": "a", "cwd": project}}},
		{name: "null for a nested optional field is absent", args: `{"name":"n","opts":{"key":"k","level":null}}`, handled: true,
			want: map[string]any{"status": "ok", "seen": map[string]any{"name": "n", "opts": map[string]any{"key": "k"}}}},
		{name: "null for a required argument", args: `{"name":null}`, isError: true, want: invalid("name is required and must not be null")},
		{name: "null for a nested required field", args: `{"name":"n","opts":{"key":null}}`, isError: true, want: invalid("opts.key is required and must not be null")},
		{name: "null for an unknown argument is still unknown", args: `{"name":"n","zz":null}`, isError: true, want: invalid("unknown tool argument(s): zz")},
		{name: "forbidden is blocked", args: `{"name":"n","danger":true}`, want: map[string]any{"status": "blocked", "error": "probe: this call is classified forbidden and was not run", "execution_started": false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := rec.count()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: json.RawMessage(c.args)})
			if err != nil {
				t.Fatalf("a JSON-RPC error instead of a result: %v", err)
			}
			if res.IsError != c.isError {
				t.Errorf("isError = %v, want %v", res.IsError, c.isError)
			}
			got := res.StructuredContent.(map[string]any)
			if c.handled {
				for k := range got {
					if _, ok := c.want[k]; !ok {
						delete(got, k)
					}
				}
				if seen, ok := got["seen"].(map[string]any); ok {
					for k := range seen {
						if _, ok := c.want["seen"].(map[string]any)[k]; !ok {
							delete(seen, k)
						}
					}
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Fatalf("result (-want +got):\n%s", diff)
			}
			if c.isError {
				// SEP-1303: the model reads the message as the result's text.
				if text := res.Content[0].(*mcp.TextContent).Text; text != c.want["error"] {
					t.Errorf("text = %q, want the message", text)
				}
			}
			if ran := rec.count() > before; ran != c.handled {
				t.Fatalf("handler ran = %v, want %v", ran, c.handled)
			}
		})
	}
	if len(rec.recs) != len(cases) {
		t.Fatalf("audit sink saw %d calls, want one per call (%d)", len(rec.recs), len(cases))
	}
	last := rec.recs[len(rec.recs)-1]
	if last.Tool != "probe" || last.Host != "generic" || last.Status != "blocked" || last.Class != tools.Forbidden || last.ProtocolError {
		t.Fatalf("last audit record = %+v", last)
	}
	refused := rec.recs[2]
	if refused.Status != "invalid_input" || refused.ProtocolError {
		t.Fatalf("a validation refusal was audited as %+v", refused)
	}
}

// TestSameRefusalUnderEveryHost: validation comes before the binding, so a bad project
// argument gets the same answer whichever host serves the call.
func TestSameRefusalUnderEveryHost(t *testing.T) {
	t.Parallel()
	project := testkit.TempDir(t)
	for _, h := range []host.Host{host.NewGeneric(project, nil), claude.New(project, nil), codex.New("")} {
		cs := serve(t, &recorder{}, runtime.Options{Host: h, ProjectDir: project})
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{"name": "n", "cwd": 5}})
		if err != nil || !res.IsError || res.StructuredContent.(map[string]any)["error"] != "cwd must be a string" {
			t.Errorf("%s: %v %v", h.Name(), res, err)
		}
	}
}

// TestExecutionFactsReachTheAudit: the record carries what the tool declared about
// the call (plan-first, may start a process), never a guess from its name.
func TestExecutionFactsReachTheAudit(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	cs := serve(t, rec, runtime.Options{ProjectDir: testkit.TempDir(t)})
	for _, execute := range []bool{false, true} {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{"name": "n", "execute": execute}}); err != nil {
			t.Fatal(err)
		}
	}
	plan, run := rec.recs[0], rec.recs[1]
	if !plan.PlanFirst || plan.Execute || plan.MayStartProcess || plan.Class != tools.ReadOnly {
		t.Errorf("plan recorded as %+v", plan)
	}
	if !run.Execute || !run.MayStartProcess || run.Class != tools.ApprovalRequired {
		t.Errorf("execution recorded as %+v", run)
	}
}

// TestUndeclaredStatusIsReported: a handler answering a status outside its vocabulary
// is a bug the server names on stderr.
func TestUndeclaredStatusIsReported(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	rec := &recorder{status: "surprise"}
	cs := serve(t, rec, runtime.Options{ProjectDir: testkit.TempDir(t),
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{"name": "n"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "did not declare") || !strings.Contains(log.String(), "surprise") {
		t.Fatalf("log = %q", log.String())
	}
}

// TestCapabilities: the tool list never changes, so listChanged is not promised; the
// host's instructions are sent.
func TestCapabilities(t *testing.T) {
	t.Parallel()
	reg := tools.New()
	reg.Register((&recorder{}).tool())
	cs := mcptest.Connect(t, runtime.NewServer(reg, runtime.Options{Host: codex.New("")}))
	init := cs.InitializeResult()
	if init.Capabilities.Tools == nil || init.Capabilities.Tools.ListChanged {
		t.Fatalf("tools capability = %+v", init.Capabilities.Tools)
	}
	if init.Instructions != codex.Instructions {
		t.Fatalf("instructions = %q", init.Instructions)
	}
}

// An unknown tool is a JSON-RPC error, answered by the go-sdk.
func TestUnknownTool(t *testing.T) {
	t.Parallel()
	cs := serve(t, &recorder{}, runtime.Options{})
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope"})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Fatalf("err = %v", err)
	}
}

// An embedder mounts our tools next to its own; both answer, and its tool is not
// touched by our pipeline.
func TestMountOnEmbedderServer(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	reg := tools.New()
	reg.Register(rec.tool())
	srv := mcp.NewServer(&mcp.Implementation{Name: "embedder", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "theirs", Description: "embedder tool"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, struct{}, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "mine"}}}, struct{}{}, nil
		})
	instructions := runtime.Mount(srv, reg, runtime.Options{Host: codex.New(""), Audit: rec})
	if instructions != codex.Instructions {
		t.Errorf("Mount returned instructions %q", instructions)
	}
	cs := mcptest.Connect(t, srv)
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
	}
	if diff := cmp.Diff([]string{"probe", "theirs"}, names); diff != "" {
		t.Fatalf("tools (-want +got):\n%s", diff)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "theirs"})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "mine" {
		t.Fatalf("embedder tool: %v %v", res, err)
	}
	if len(rec.recs) != 0 {
		t.Fatalf("audit saw %+v, want nothing of the embedder's tool", rec.recs)
	}
}

func TestRegisterPanics(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	handle := func(context.Context, *tools.Env, probeIn) (probeOut, error) { return probeOut{}, nil }
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"nil", func() { tools.New().Register(nil) }},
		{"duplicate", func() { r := tools.New(); r.Register(rec.tool()); r.Register(rec.tool()) }},
		{"empty name", func() {
			tools.Define(tools.Def[probeIn, probeOut]{Description: "d", Classes: tools.Classification{Base: tools.ReadOnly},
				Statuses: []string{"ok"}, Handle: handle})
		}},
		{"no statuses", func() {
			tools.Define(tools.Def[probeIn, probeOut]{Name: "x", Description: "d", Classes: tools.Classification{Base: tools.ReadOnly}, Handle: handle})
		}},
		{"no class", func() {
			tools.Define(tools.Def[probeIn, probeOut]{Name: "x", Description: "d", Statuses: []string{"ok"}, Handle: handle})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			c.fn()
		})
	}
}
