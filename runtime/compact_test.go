package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/internal/testkit/mcptest"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
)

type compactIn struct {
	Refuse bool `json:"refuse,omitempty"`
}

type compactOut struct {
	tools.Status
	Items []compactItem `json:"items,omitempty"`
}

type compactItem struct {
	Name string   `json:"name"`
	Tags []string `json:"tags"`
}

// TestTextIsTheStructuredContentCompact: the text content is the structured content's
// own JSON, compact (issue 24): not one byte of indentation, the same keys in the same
// order; an invalid_input result's second block likewise.
func TestTextIsTheStructuredContentCompact(t *testing.T) {
	t.Parallel()
	tool := tools.Define(tools.Def[compactIn, compactOut]{
		Name: "compact", Title: "Compact", Description: "Answers a nested result.",
		Classes: tools.Classification{Base: tools.ReadOnly}, Statuses: []string{"ok"},
		Handle: func(_ context.Context, _ *tools.Env, in compactIn) (compactOut, error) {
			out := compactOut{Status: tools.Status{Status: "ok"}, Items: []compactItem{{"a", []string{"x", "y"}}, {"b", []string{}}}}
			if in.Refuse {
				out.Status = tools.Status{Status: tools.StatusInvalidInput, Error: "refused"}
			}
			return out, nil
		},
	})
	reg := tools.New()
	reg.Register(tool)
	cs := mcptest.Connect(t, runtime.NewServer(reg, runtime.Options{}))
	for _, c := range []struct {
		args  map[string]any
		block int
	}{{map[string]any{}, 0}, {map[string]any{"refuse": true}, 1}} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "compact", Arguments: c.args})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Content) != c.block+1 {
			t.Fatalf("%v: %d content blocks, want %d", c.args, len(res.Content), c.block+1)
		}
		text := res.Content[c.block].(*mcp.TextContent).Text
		want, _ := json.Marshal(res.StructuredContent) // the client decoded it into a map: keys sorted
		var got any
		if err := json.Unmarshal([]byte(text), &got); err != nil {
			t.Fatalf("%v: text is not JSON: %v\n%s", c.args, err, text)
		}
		again, _ := json.Marshal(got)
		if string(again) != string(want) {
			t.Errorf("%v: text %s is not the structured content %s", c.args, text, want)
		}
		if len(text) != len(want) {
			t.Errorf("%v: text is %d bytes, the compact structured content %d:\n%s", c.args, len(text), len(want), text)
		}
	}
}
