package runtime_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
)

// progressStep is one report the progress probe makes through env.Report.
type progressStep struct {
	ElapsedMS int    `json:"elapsed_ms"`
	Message   string `json:"message,omitempty"`
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
				env.Report(tools.Progress{Elapsed: time.Duration(s.ElapsedMS) * time.Millisecond, Message: s.Message})
			}
			return progressOut{Status: tools.Status{Status: "ok"}, Watched: env.Progress != nil}, nil
		},
	})
}

// heard is one notifications/progress as the client received it.
type heard struct {
	Token    any
	Progress float64
	Message  string
}

// progressClient serves the probe and returns a client whose notifications/progress
// arrive, in order, on the returned channel.
func progressClient(t *testing.T) (*mcp.ClientSession, <-chan heard) {
	t.Helper()
	reg := tools.New()
	reg.Register(progressTool())
	// No DataDir and no Audit: nothing is recorded.
	srv := runtime.NewServer(reg, runtime.Options{ProjectDir: t.TempDir(), Getenv: func(string) string { return "" }})
	// The client runs notification handlers one at a time in arrival order; the buffer
	// keeps them from ever waiting on the test.
	ch := make(chan heard, 64)
	cs := mcptest.ConnectWith(t, srv, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			ch <- heard{Token: req.Params.ProgressToken, Progress: req.Params.Progress, Message: req.Params.Message}
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
	const fence = "fence"
	tests := []struct {
		name  string
		token any
		steps []progressStep
		want  []heard
	}{
		{
			name:  "no token, no notifications",
			steps: []progressStep{{500, "resolving"}, {1500, "downloading"}},
		},
		{
			name:  "increasing",
			token: "call-1",
			steps: []progressStep{{0, "starting"}, {250, "resolving"}, {1500, "downloading 40%"}, {2500, ""}},
			want: []heard{{"call-1", 0, "starting"}, {"call-1", 0.25, "resolving"}, {"call-1", 1.5, "downloading 40%"},
				{"call-1", 2.5, ""}},
		},
		{
			name:  "non-increasing elapsed is not sent again",
			token: "call-2",
			steps: []progressStep{{1000, "first"}, {1000, "same elapsed"}, {500, "earlier"}, {2000, "later"}, {2000, "later again"}},
			want:  []heard{{"call-2", 1, "first"}, {"call-2", 2, "later"}},
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
			if !callProgress(t, cs, fence, []progressStep{{3_600_000, fence}}).Watched {
				t.Fatal("the fence call, which has a progressToken, had no progress sink")
			}
			var got []heard
			guard := time.After(10 * time.Second) // failure guard only
		collect:
			for {
				select {
				case h := <-ch:
					if h.Token == fence {
						break collect
					}
					got = append(got, h)
				case <-guard:
					t.Fatalf("the fence call's notification never arrived; heard before it: %+v", got)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("notifications/progress of the call (-want +got):\n%s", d)
			}
		})
	}
}
