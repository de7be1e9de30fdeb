package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/tools"
	"log/slog"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/schema"
)

// Options configure a server built from a registry. Zero values mean: generic host,
// no audit, data and project dirs from the environment, the embedded catalog.
type Options struct {
	Host    host.Host
	Audit   AuditSink
	Env     tools.Env
	Logger  *slog.Logger
	Catalog []byte
}

func (o *Options) fill() {
	if o.Host == nil {
		o.Host = host.Generic{}
	}
	if o.Env.Getenv == nil {
		o.Env.Getenv = os.Getenv
	}
	if o.Env.DataDir == "" {
		o.Env.DataDir = host.DefaultDataDir(o.Env.Getenv)
	}
	if o.Env.ProjectDir == "" {
		o.Env.ProjectDir = host.DefaultProjectDir(o.Env.Getenv)
	}
	if o.Env.Catalog == nil {
		o.Env.Catalog = o.Catalog
	}
	o.Env.Host = o.Host.Name()
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
}

// NewServer builds an *mcp.Server named windows-dev-agent serving every tool of reg.
func NewServer(reg *tools.Registry, opts Options) *mcp.Server {
	opts.fill()
	s := mcp.NewServer(&mcp.Implementation{Name: wda.ServerName, Title: "Windows Dev Agent", Version: wda.Version},
		&mcp.ServerOptions{
			Instructions: opts.Host.Instructions(),
			Logger:       opts.Logger,
			Capabilities: &mcp.ServerCapabilities{},
		})
	Mount(s, reg, opts)
	return s
}

// Mount adds the tools of reg to a caller's server, with the gate middleware. Calls to
// tools that are not in reg pass through the middleware untouched, so an embedder's own
// tools keep working.
func Mount(s *mcp.Server, reg *tools.Registry, opts Options) {
	opts.fill()
	for _, t := range reg.Tools() {
		s.AddTool(MCPTool(t, opts.Host), handler(t))
	}
	s.AddReceivingMiddleware(gate(reg, opts))
}

// MCPTool is the wire description of t as host h advertises it.
func MCPTool(t tools.Tool, h host.Host) *mcp.Tool {
	if h == nil {
		h = host.Generic{}
	}
	a := t.Annotations()
	return &mcp.Tool{
		Name:         t.Name(),
		Title:        t.Title(),
		Description:  t.Description(),
		InputSchema:  h.AdvertisedSchema(t, t.InputSchema()),
		OutputSchema: t.OutputSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title:           t.Title(),
			ReadOnlyHint:    a.ReadOnly,
			DestructiveHint: new(a.Destructive),
			IdempotentHint:  a.Idempotent,
			OpenWorldHint:   new(a.OpenWorld),
		},
	}
}

// handler is what the SDK calls after the gate: arguments are already validated,
// defaulted and bound, and the per-call Env is in ctx.
func handler(t tools.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		env := tools.EnvFrom(ctx)
		if env == nil {
			return nil, &jsonrpc.Error{Code: -32000, Message: "windows-dev-agent: call did not pass the gate"}
		}
		args, err := schema.Validate(t.InputSchema(), req.Params.Arguments)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		out, err := t.Call(ctx, env, args)
		if err != nil {
			var ae *schema.ArgError
			if errors.As(err, &ae) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
			}
			return nil, &jsonrpc.Error{Code: -32000, Message: err.Error()}
		}
		return Result(out)
	}
}

// Result wraps a tool output as structuredContent plus the same JSON as text.
func Result(out any) (*mcp.CallToolResult, error) {
	text, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, &jsonrpc.Error{Code: -32000, Message: fmt.Sprintf("encoding result: %v", err)}
	}
	var structured map[string]any
	if err := json.Unmarshal(text, &structured); err != nil {
		return nil, &jsonrpc.Error{Code: -32000, Message: "tool result is not a JSON object"}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
		StructuredContent: structured,
	}, nil
}

// refusal is the result of a call stopped before its handler.
func refusal(status, msg string) (*mcp.CallToolResult, error) {
	return Result(map[string]any{"status": status, "error": msg, "execution_started": false})
}

// gate is the receiving middleware: for tools/call of a registered tool it binds the
// project argument, validates strictly, blocks forbidden calls, runs the handler with a
// per-call Env and hands the outcome to the audit sink. Everything else passes through.
func gate(reg *tools.Registry, opts Options) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			ctr, ok := req.(*mcp.CallToolRequest)
			if !ok || method != "tools/call" || ctr.Params == nil {
				return next(ctx, method, req)
			}
			t, known := reg.Lookup(ctr.Params.Name)
			if !known {
				return next(ctx, method, req)
			}
			start := time.Now()
			env := opts.Env
			rec := CallRecord{Tool: t.Name(), Host: opts.Host.Name(), Started: start.UTC(), Class: tools.ApprovalRequired}
			if ctr.Session != nil {
				rec.SessionID = ctr.Session.ID()
			}
			res, err := call(ctx, t, ctr, &env, opts.Host, &rec, next, method)
			rec.Duration = time.Since(start)
			rec.DataDir = env.DataDir
			if ctr, ok := res.(*mcp.CallToolResult); ok && ctr != nil {
				if m, ok := ctr.StructuredContent.(map[string]any); ok {
					rec.Result = m
				}
			}
			rec.ProtocolError = err != nil
			if opts.Audit != nil {
				opts.Audit.RecordCall(ctx, rec)
			}
			return res, err
		}
	}
}

func call(ctx context.Context, t tools.Tool, ctr *mcp.CallToolRequest, env *tools.Env, h host.Host, rec *CallRecord, next mcp.MethodHandler, method string) (mcp.Result, error) {
	bound := ctr.Params.Arguments
	// UseNumber keeps literals such as 120.0 intact through the host binding, so the
	// validator still sees (and rejects) them. Arguments that are not an object skip
	// the binding and fail validation below.
	dec := json.NewDecoder(bytes.NewReader(ctr.Params.Arguments))
	dec.UseNumber()
	var v any
	if len(bytes.TrimSpace(bound)) == 0 {
		v = map[string]any{}
	} else if dec.Decode(&v) != nil {
		v = nil
	}
	if raw, ok := v.(map[string]any); ok {
		if err := h.Bind(ctx, t, raw, env); err != nil {
			var be *host.BindError
			if errors.As(err, &be) {
				return refusal("invalid_input", be.Msg)
			}
			return nil, &jsonrpc.Error{Code: -32000, Message: err.Error()}
		}
		b, err := json.Marshal(raw)
		if err != nil {
			return nil, &jsonrpc.Error{Code: -32000, Message: err.Error()}
		}
		bound = b
	}
	args, verr := schema.Validate(t.InputSchema(), bound)
	if verr != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: verr.Error()}
	}
	rec.Class = t.Classify(args)
	rec.Execute = tools.Args(args).Bool("execute")
	if rec.Class == tools.Forbidden {
		return refusal("blocked", fmt.Sprintf("%s: this call is classified forbidden and was not run", t.Name()))
	}
	params := *ctr.Params
	params.Arguments, _ = json.Marshal(args)
	cp := *ctr
	cp.Params = &params
	return next(tools.WithEnv(ctx, env), method, &cp)
}
