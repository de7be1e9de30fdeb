package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
	"github.com/windows-dev-agent/wda/tools/tooldiscover"
)

// progressStep is one report the progress probe makes through env.Report.
type progressStep struct {
	ElapsedMS int    `json:"elapsed_ms"`
	Message   string `json:"message,omitempty"`
	Done      int    `json:"done,omitempty"`
	Total     int    `json:"total,omitempty"`
}

type progressIn struct {
	Steps []progressStep `json:"steps,omitempty"`
}

type progressOut struct {
	tools.Status
	// Watched is whether the handler was given a progress sink.
	Watched bool `json:"watched"`
}

// progressTool reports each step of its input, in order, then answers ok.
func progressTool() tools.Tool {
	return tools.Define(tools.Def[progressIn, progressOut]{
		Name: "progress_probe", Order: 1, Title: "Progress probe", Description: "test tool that reports progress",
		Classes: tools.Classification{Base: tools.ReadOnly}, Statuses: []string{"ok"},
		Handle: func(_ context.Context, env *tools.Env, in progressIn) (progressOut, error) {
			for _, s := range in.Steps {
				env.Report(tools.Progress{Elapsed: time.Duration(s.ElapsedMS) * time.Millisecond, Message: s.Message, Done: s.Done, Total: s.Total})
			}
			return progressOut{Status: tools.Status{Status: "ok"}, Watched: env.Progress != nil}, nil
		},
	})
}

// heard is one notifications/progress as the client received it.
type heard struct {
	Token    any
	Progress float64
	Total    float64
	Message  string
}

// progressClient serves the probe and returns a client whose notifications/progress
// arrive, in order, on the returned channel.
func progressClient(t *testing.T) (*mcp.ClientSession, <-chan heard) {
	t.Helper()
	return progressClientOf(t, tools.New())
}

// progressClientOf is progressClient serving reg's tools next to the probe.
func progressClientOf(t *testing.T, reg *tools.Registry) (*mcp.ClientSession, <-chan heard) {
	t.Helper()
	reg.Register(progressTool())
	// No DataDir and no Audit: nothing is recorded. PATH is an empty directory (an
	// unset PATH would mean the system's), so no tool of the registry finds a program.
	empty := t.TempDir()
	getenv := func(k string) string {
		if k == "PATH" {
			return empty
		}
		return ""
	}
	srv := runtime.NewServer(reg, runtime.Options{ProjectDir: t.TempDir(), Getenv: getenv})
	// The client runs notification handlers one at a time in arrival order; the buffer
	// keeps them from ever waiting on the test.
	ch := make(chan heard, 64)
	cs := mcptest.ConnectWith(t, srv, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			ch <- heard{Token: req.Params.ProgressToken, Progress: req.Params.Progress, Total: req.Params.Total, Message: req.Params.Message}
		},
	})
	return cs, ch
}

func callProgress(t *testing.T, cs *mcp.ClientSession, token any, steps []progressStep) progressOut {
	t.Helper()
	params := &mcp.CallToolParams{Name: "progress_probe", Arguments: progressIn{Steps: steps}}
	if token != nil {
		params.SetProgressToken(token)
	}
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("progress_probe answered an error: %+v", res.Content)
	}
	var out progressOut
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestProgressNotifications: a call with a progressToken turns each report of the
// handler into notifications/progress with that token, the elapsed seconds as progress
// and the message; a report whose elapsed time does not grow is not sent (MCP requires
// progress to increase); a call without a token gets no sink and sends nothing.
//
// What a call did not send is proven by order, not by waiting: after the call under
// test a fence call with its own token reports once, and the client hears
// notifications in the order the server sent them, so everything heard before the
// fence's is everything the call under test sent.
func TestProgressNotifications(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		token any
		steps []progressStep
		want  []heard
	}{
		{
			name:  "no token, no notifications",
			steps: []progressStep{{ElapsedMS: 500, Message: "resolving"}, {ElapsedMS: 1500, Message: "downloading"}},
		},
		{
			name:  "increasing",
			token: "call-1",
			steps: []progressStep{{ElapsedMS: 0, Message: "starting"}, {ElapsedMS: 250, Message: "resolving"}, {ElapsedMS: 1500, Message: "downloading 40%"}, {ElapsedMS: 2500, Message: ""}},
			want: []heard{{"call-1", 0, 0, "starting"}, {"call-1", 0.25, 0, "resolving"}, {"call-1", 1.5, 0, "downloading 40%"},
				{"call-1", 2.5, 0, ""}},
		},
		{
			name:  "non-increasing elapsed is not sent again",
			token: "call-2",
			steps: []progressStep{{ElapsedMS: 1000, Message: "first"}, {ElapsedMS: 1000, Message: "same elapsed"}, {ElapsedMS: 500, Message: "earlier"}, {ElapsedMS: 2000, Message: "later"}, {ElapsedMS: 2000, Message: "later again"}},
			want:  []heard{{"call-2", 1, 0, "first"}, {"call-2", 2, 0, "later"}},
		},
		{
			name:  "counted: done of total, a count that does not grow is not sent again",
			token: "call-3",
			steps: []progressStep{{5000, "1 of 3", 1, 3}, {6000, "2 of 3", 2, 3}, {7000, "2 of 3 again", 2, 3}, {100, "3 of 3", 3, 3}},
			want:  []heard{{"call-3", 1, 3, "1 of 3"}, {"call-3", 2, 3, "2 of 3"}, {"call-3", 3, 3, "3 of 3"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cs, ch := progressClient(t)
			out := callProgress(t, cs, tt.token, tt.steps)
			if want := tt.token != nil; out.Watched != want {
				t.Errorf("handler had a progress sink: %v, want %v", out.Watched, want)
			}
			if d := cmp.Diff(tt.want, heardBeforeFence(t, cs, ch)); d != "" {
				t.Errorf("notifications/progress of the call (-want +got):\n%s", d)
			}
		})
	}
}

// heardBeforeFence makes a fence call with its own token and returns every
// notification heard before the fence's: everything the calls before it sent.
func heardBeforeFence(t *testing.T, cs *mcp.ClientSession, ch <-chan heard) []heard {
	t.Helper()
	const fence = "fence"
	if !callProgress(t, cs, fence, []progressStep{{ElapsedMS: 3_600_000, Message: fence}}).Watched {
		t.Fatal("the fence call, which has a progressToken, had no progress sink")
	}
	var got []heard
	guard := time.After(10 * time.Second) // failure guard only
	for {
		select {
		case h := <-ch:
			if h.Token == fence {
				return got
			}
			got = append(got, h)
		case <-guard:
			t.Fatalf("the fence call's notification never arrived; heard before it: %+v", got)
		}
	}
}

// TestCountedProgressCarriesTotal: work that is counted is reported as MCP means it,
// progress n with total m, so a client can draw "n of m" itself: tool_discover's
// notifications count its probes, one per probe, 1 to m, each with the total
// (docs/transport.md, "Progress"). No probe resolves here (an empty PATH), so
// nothing is started.
func TestCountedProgressCarriesTotal(t *testing.T) {
	t.Parallel()
	reg := tools.New()
	reg.Register(tooldiscover.New(tooldiscover.DefaultDeps()))
	cs, ch := progressClientOf(t, reg)
	var names []string
	for _, g := range tooldiscover.Groups {
		names = append(names, g.Tools...)
	}
	params := &mcp.CallToolParams{Name: "tool_discover", Arguments: map[string]any{"category": "all"}}
	params.SetProgressToken("discover")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	got := heardBeforeFence(t, cs, ch)
	m := len(names)
	if len(got) != m {
		t.Fatalf("heard %d notifications, want one per probe (%d): %+v", len(got), m, got)
	}
	for i, h := range got {
		prefix := fmt.Sprintf("probed %d of %d tools (", i+1, m)
		if h.Token != "discover" || h.Progress != float64(i+1) || h.Total != float64(m) || !strings.HasPrefix(h.Message, prefix) {
			t.Errorf("notification %d = %+v, want progress %d, total %d, message %q…", i, h, i+1, m, prefix)
		}
	}
}
