package runtime_test

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
	_ "github.com/windows-dev-agent/wda/tools/all"
)

// ExampleMount serves two of the ten tools next to an embedder's own tool.
func ExampleMount() {
	project, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(project)
	chosen, err := tools.Default().Subset("env_inspect", "workflow_plan")
	if err != nil {
		panic(err)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "mine", Version: "1"}, nil)
	instructions := runtime.Mount(srv, chosen, runtime.Options{ProjectDir: project})

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := srv.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "workflow_plan", Arguments: map[string]any{"task": "  "}})
	fmt.Println(res.IsError, res.StructuredContent.(map[string]any)["status"], instructions == "")
	// Output: true invalid_input true
}

// ExampleDefine declares a tool as data: its classification, when it starts a process
// and its status vocabulary are what the pipeline, the hooks and the packaging read.
func ExampleDefine() {
	type in struct {
		Name    string `json:"name" jsonschema:"required,minLength=1"`
		Execute bool   `json:"execute,omitempty"`
	}
	type out struct {
		tools.Status
		Greeting string `json:"greeting,omitempty"`
	}
	greet := tools.Define(tools.Def[in, out]{
		Name:        "greet",
		Description: "Plan or send a greeting.",
		Classes: tools.Classification{Base: tools.ReadOnly, Rules: []tools.Rule{
			{When: tools.WhenTrue("execute"), Class: tools.ApprovalRequired}}},
		Starts:   tools.NeverCond,
		Statuses: []string{"planned", "sent"},
		Handle: func(_ context.Context, _ *tools.Env, a in) (out, error) {
			if !a.Execute {
				return out{Status: tools.Status{Status: "planned"}}, nil
			}
			return out{Status: tools.Status{Status: "sent"}, Greeting: "hello " + a.Name}, nil
		},
	})
	fmt.Println(greet.Classify(tools.Args{"name": "x"}), greet.Classify(tools.Args{"name": "x", "execute": true}), greet.PlanFirst(), greet.Statuses())
	// Output: read-only approval-required true [planned sent invalid_input blocked]
}
