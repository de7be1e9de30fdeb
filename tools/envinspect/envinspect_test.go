package envinspect

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/internal/discovery"
)

// fakeProducer reports a launch and counts runs.
type fakeProducer struct{ runs *int }

func (fakeProducer) Name() string { return "fake" }
func (p fakeProducer) Produce(context.Context) discovery.Facts {
	*p.runs++
	return discovery.Facts{System: &discovery.System{OSName: "Fake OS"}, ExecutionStarted: true}
}

// withProducers is the tool with discovery routed to fake producers, keeping the real
// cache of the Env's data dir.
func withProducers(ps ...discovery.Producer) tools.Tool {
	d := DefaultDeps()
	d.Discover = func(ctx context.Context, o discovery.Options, force bool) discovery.Result {
		o.Producers = ps
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		return discovery.Discover(ctx, o, force)
	}
	return New(d)
}

func call(t *testing.T, tool tools.Tool, env *tools.Env, args tools.Args) map[string]any {
	t.Helper()
	if args == nil {
		args = tools.Args{}
	}
	m, _ := mcptest.Call(t, tool, env, args)
	return m
}

func TestEnvInspectCacheAndExecutionStarted(t *testing.T) {
	t.Parallel()
	runs := 0
	tool := withProducers(fakeProducer{&runs})
	env := &tools.Env{DataDir: t.TempDir(), Getenv: func(string) string { return "" }}
	cases := []struct {
		args    tools.Args
		started bool
		runs    int
	}{
		{nil, true, 1},  // cold: a launch
		{nil, false, 1}, // cache hit
		{tools.Args{"force_refresh": true}, true, 2}, // force skips the cache
		{tools.Args{"force_refresh": false}, false, 2},
	}
	for i, c := range cases {
		m := call(t, tool, env, c.args)
		if m["execution_started"] != c.started || runs != c.runs || m["status"] != "ok" {
			t.Fatalf("call %d: %v (runs %d)", i, m, runs)
		}
		if _, ok := m["snapshot"].(map[string]any); !ok {
			t.Fatalf("call %d: no snapshot", i)
		}
	}
	raw, err := os.ReadFile(filepath.Join(env.DataDir, "environment.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := call(t, tool, env, tools.Args{"detail": "full"})
	b, _ := json.Marshal(m["snapshot"])
	var cached any
	_ = json.Unmarshal(raw, &cached)
	c, _ := json.Marshal(cached)
	if string(b) != string(c) {
		t.Fatalf("returned snapshot differs from the cache:\n%s\n%s", b, c)
	}
	if err := discovery.InvalidateCache(env.DataDir); err != nil {
		t.Fatal(err)
	}
	if m := call(t, tool, env, nil); m["execution_started"] != true || runs != 3 {
		t.Fatalf("after invalidation: %v runs %d", m, runs)
	}
}

func TestEnvInspectHardFailureIsDegradedCanonical(t *testing.T) {
	t.Parallel()
	d := DefaultDeps()
	d.Discover = func(context.Context, discovery.Options, bool) discovery.Result { panic("cannot construct discoverer") }
	m := call(t, New(d), &tools.Env{}, tools.Args{"detail": "full"})
	snap, _ := m["snapshot"].(map[string]any)
	if m["status"] != "degraded" || m["execution_started"] != false || snap == nil {
		t.Fatalf("%v", m)
	}
	errs, _ := snap["errors"].([]any)
	if len(errs) != 1 || !strings.Contains(errs[0].(string), "Unexpected discovery failure: cannot construct discoverer") {
		t.Fatalf("errors %v", errs)
	}
	ps := snap["probe_states"].(map[string]any)
	for k, v := range ps {
		if v != "unknown" {
			t.Errorf("probe_states.%s = %v", k, v)
		}
	}
	if v := snap["virtualization"].(map[string]any); v["windows_sandbox_available"] != nil || v["dev_drives"] != nil {
		t.Errorf("fallback virtualization %v", v)
	}
}

func TestOutputSchemaAdmitsNulls(t *testing.T) {
	// Tri-state fields must be declared nullable, so a host that validates
	// structuredContent accepts null.
	t.Parallel()
	s := schema.JSON(schema.Out(New(DefaultDeps())))
	var m map[string]any
	if err := json.Unmarshal(s, &m); err != nil {
		t.Fatal(err)
	}
	v := m["properties"].(map[string]any)["snapshot"].(map[string]any)["properties"].(map[string]any)["virtualization"].(map[string]any)["properties"].(map[string]any)
	b, _ := json.Marshal(v["hyper_v_available"])
	if ref, ok := v["hyper_v_available"].(map[string]any)["$ref"].(string); ok { // shared in $defs
		b, _ = json.Marshal(m["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")])
	}
	if !strings.Contains(string(b), `"null"`) {
		t.Fatalf("hyper_v_available schema %s does not admit null", b)
	}
}

// BenchmarkEnvInspect measures a cold call (no cache: the platform producers run)
// and a cached call, through the tool handler.
func BenchmarkEnvInspect(b *testing.B) {
	Tool := New(DefaultDeps())
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			env := &tools.Env{DataDir: b.TempDir(), Getenv: os.Getenv}
			if _, err := Tool.Call(b.Context(), env, tools.Args{"force_refresh": true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		env := &tools.Env{DataDir: b.TempDir(), Getenv: os.Getenv}
		first, err := Tool.Call(b.Context(), env, tools.Args{})
		if err != nil {
			b.Fatal(err)
		}
		stamp := first.(Out).Snapshot.Timestamp
		for b.Loop() {
			out, err := Tool.Call(b.Context(), env, tools.Args{})
			if err != nil {
				b.Fatal(err)
			}
			// A miss would produce a new timestamp (and, on Windows, a launch).
			if o := out.(Out); o.ExecutionStarted || !o.Snapshot.Timestamp.Equal(stamp.Time) {
				b.Fatal("cache miss")
			}
		}
	})
}
