package runtime_test

import (
	"context"
	"encoding/json"
	"github.com/windows-dev-agent/wda/runtime"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/tools"
)

type probeIn struct {
	Flag    bool     `json:"flag,omitempty" jsonschema:"default=false"`
	Count   int      `json:"count,omitempty" jsonschema:"minimum=1,maximum=600,default=120"`
	Name    string   `json:"name" jsonschema:"required,maxLength=8"`
	Mode    string   `json:"mode,omitempty" jsonschema:"enum=a,enum=b,default=a"`
	Items   []string `json:"items,omitempty" jsonschema:"maxItems=2"`
	Free    string   `json:"free,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	Execute bool     `json:"execute,omitempty"`
}

type probeOut struct {
	tools.Status
	Seen probeIn `json:"seen"`
}

// recorder remembers what reached the handler and the audit sink.
type recorder struct {
	mu    sync.Mutex
	calls []probeIn
	recs  []runtime.CallRecord
}

func (r *recorder) RecordCall(_ context.Context, rec runtime.CallRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec)
}

func (r *recorder) tool() tools.Tool {
	return tools.Define(tools.Def[probeIn, probeOut]{
		Name: "probe", Order: 1, Title: "Probe", Description: "test tool", ProjectArg: "cwd",
		Classify: func(a tools.Args) tools.Class {
			if a.String("name") == "evil" {
				return tools.Forbidden
			}
			return tools.ReadOnly
		},
		Handle: func(_ context.Context, env *tools.Env, in probeIn) (probeOut, error) {
			r.mu.Lock()
			r.calls = append(r.calls, in)
			r.mu.Unlock()
			return probeOut{Status: tools.Status{Status: "ok"}, Seen: in}, nil
		},
	})
}

// refuseHost refuses any cwd containing "outside", like a host binding would.
type refuseHost struct{ host.Generic }

func (refuseHost) Name() string { return "test" }
func (refuseHost) Bind(_ context.Context, t tools.Tool, args map[string]any, env *tools.Env) error {
	if s, _ := args[t.ProjectArg()].(string); strings.Contains(s, "outside") {
		return &host.BindError{Msg: "cwd must stay inside the active project"}
	}
	return nil
}

func TestGate(t *testing.T) {
	rec := &recorder{}
	reg := tools.New()
	reg.Register(rec.tool())
	srv := runtime.NewServer(reg, runtime.Options{Host: refuseHost{}, Audit: rec, Env: tools.Env{DataDir: t.TempDir(), ProjectDir: t.TempDir()}})
	cs := testkit.Connect(t, srv)
	many := map[string]any{"name": "x"}
	for i := range 32 {
		many[strings.Repeat("k", i+1)] = 1
	}
	manyJSON, _ := json.Marshal(many)
	cases := []struct {
		name    string
		args    string
		wantErr string         // JSON-RPC error text, or
		want    map[string]any // structured result subset
		handled bool
	}{
		{name: "defaults materialised", args: `{"name":"n"}`, handled: true,
			want: map[string]any{"status": "ok", "seen": map[string]any{"count": 120.0, "name": "n", "mode": "a"}}},
		{name: "boolean as string", args: `{"name":"n","flag":"false"}`, wantErr: "flag must be a boolean"},
		{name: "integer literal with fraction", args: `{"name":"n","count":120.0}`, wantErr: "count must be an integer"},
		{name: "integer below minimum", args: `{"name":"n","count":0}`, wantErr: "count must be >= 1"},
		{name: "integer above maximum", args: `{"name":"n","count":601}`, wantErr: "count must be <= 600"},
		{name: "unknown arguments sorted", args: `{"name":"n","zz":1,"aa":2}`, wantErr: "unknown tool argument(s): aa, zz"},
		{name: "missing required", args: `{}`, wantErr: "missing required tool argument(s): name"},
		{name: "declared maxLength", args: `{"name":"123456789"}`, wantErr: "name must be at most 8 characters"},
		{name: "global string bound", args: `{"name":"n","free":"` + strings.Repeat("x", 32769) + `"}`, wantErr: "free must be at most 32768 characters"},
		{name: "declared maxItems", args: `{"name":"n","items":["a","b","c"]}`, wantErr: "items must have at most 2 items"},
		{name: "array item type", args: `{"name":"n","items":["a",1]}`, wantErr: "items[1] must be a string"},
		{name: "enum", args: `{"name":"n","mode":"c"}`, wantErr: "mode must be one of [a, b]"},
		{name: "too many fields", args: string(manyJSON), wantErr: "too many tool arguments"},
		{name: "null arguments", args: `null`, wantErr: "tool arguments must be an object"},
		{name: "forbidden is blocked", args: `{"name":"evil"}`, want: map[string]any{"status": "blocked", "execution_started": false}},
		{name: "host binding refuses", args: `{"name":"n","cwd":"/outside"}`, want: map[string]any{"status": "invalid_input", "error": "cwd must stay inside the active project", "execution_started": false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := len(rec.calls)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: json.RawMessage(c.args)})
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, c.wantErr)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				got := res.StructuredContent.(map[string]any)
				for k := range got {
					if _, ok := c.want[k]; !ok {
						delete(got, k)
					}
				}
				if diff := cmp.Diff(c.want, got); diff != "" {
					t.Fatalf("result (-want +got):\n%s", diff)
				}
			}
			if ran := len(rec.calls) > before; ran != c.handled {
				t.Fatalf("handler ran = %v, want %v", ran, c.handled)
			}
		})
	}
	if len(rec.recs) != len(cases) {
		t.Fatalf("audit sink saw %d calls, want one per call (%d)", len(rec.recs), len(cases))
	}
	last := rec.recs[len(rec.recs)-1]
	if last.Tool != "probe" || last.Host != "test" || last.Result["status"] != "invalid_input" {
		t.Fatalf("last audit record = %+v", last)
	}
	if blocked := rec.recs[len(rec.recs)-2]; blocked.Class != tools.Forbidden {
		t.Fatalf("blocked call recorded class %q", blocked.Class)
	}
}

// An unknown tool is a JSON-RPC error. The go-sdk answers it (-32602 unknown tool "x")
// before any middleware could shape it; its own -32601 text would be replaced anyway.
func TestUnknownTool(t *testing.T) {
	reg := tools.New()
	reg.Register((&recorder{}).tool())
	cs := testkit.Connect(t, runtime.NewServer(reg, runtime.Options{}))
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope"})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Fatalf("err = %v", err)
	}
}

// An embedder mounts our tools next to its own; both answer, and its tool is not gated.
func TestMountOnEmbedderServer(t *testing.T) {
	rec := &recorder{}
	reg := tools.New()
	reg.Register(rec.tool())
	srv := mcp.NewServer(&mcp.Implementation{Name: "embedder", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "theirs", Description: "embedder tool"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, struct{}, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "mine"}}}, struct{}{}, nil
		})
	runtime.Mount(srv, reg, runtime.Options{Audit: rec, Env: tools.Env{DataDir: t.TempDir(), ProjectDir: t.TempDir()}})
	cs := testkit.Connect(t, srv)
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
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{"name": "n"}}); err != nil {
		t.Fatal(err)
	}
	if len(rec.recs) != 1 || rec.recs[0].Tool != "probe" {
		t.Fatalf("audit saw %+v, want only the mounted tool", rec.recs)
	}
}

func TestRegisterPanics(t *testing.T) {
	rec := &recorder{}
	for _, c := range []struct {
		name string
		fn   func()
	}{
		{"nil", func() { tools.New().Register(nil) }},
		{"duplicate", func() { r := tools.New(); r.Register(rec.tool()); r.Register(rec.tool()) }},
		{"empty name", func() {
			tools.Define(tools.Def[probeIn, probeOut]{Description: "d", Classify: func(tools.Args) tools.Class { return tools.ReadOnly },
				Handle: func(context.Context, *tools.Env, probeIn) (probeOut, error) { return probeOut{}, nil }})
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
