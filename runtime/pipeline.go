package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/platform/contain"
	"github.com/windows-dev-agent/wda/internal/policy"
	"github.com/windows-dev-agent/wda/schema"
	"github.com/windows-dev-agent/wda/tools"
)

// pipeline is the one call path of one tool.
type pipeline struct {
	tool    tools.Tool
	schemas *schema.Rendered
	opts    Options
}

// handle is the SDK handler of the tool: every step of the pipeline, in order.
func (p *pipeline) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	t := p.tool
	rec := CallRecord{Tool: t.Name(), Host: p.opts.Host.Name(), DataDir: p.opts.DataDir,
		Started: p.opts.Now().UTC(), Class: tools.ApprovalRequired, PlanFirst: t.PlanFirst(), Statuses: t.Statuses()}
	if req.Session != nil {
		rec.SessionID = req.Session.ID()
	}
	if req.Extra != nil && req.Extra.TokenInfo != nil {
		rec.Caller = req.Extra.TokenInfo.UserID
	}
	var raw json.RawMessage
	if req.Params != nil {
		raw = req.Params.Arguments
	}
	res, err := p.call(ctx, req, raw, &rec)
	rec.Duration = p.opts.Now().Sub(rec.Started)
	rec.ProtocolError = err != nil
	p.auditFacts(&rec)
	if p.opts.Audit != nil {
		p.opts.Audit.RecordCall(ctx, rec)
	}
	return res, err
}

func (p *pipeline) call(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage, rec *CallRecord) (*mcp.CallToolResult, error) {
	t := p.tool
	// 1–2. Decode once and validate against the tool's own schema.
	args, err := p.schemas.Validator.Validate(raw)
	if err != nil {
		return p.refuse(rec, tools.StatusInvalidInput, err.Error())
	}
	rec.args = args
	env := tools.Env{Host: p.opts.Host.Name(), DataDir: p.opts.DataDir, ProjectDir: p.opts.ProjectDir,
		Getenv: p.opts.Getenv, Progress: progressSink(ctx, req)}
	// 3. Bind the project argument on the validated value, to an opened directory.
	hc := hostCall(req)
	if arg := t.ProjectArg(); arg != "" {
		proj, err := p.opts.Host.Bind(t, args[arg], hc)
		if err != nil {
			var be *host.BindError
			if errors.As(err, &be) {
				return p.refuse(rec, tools.StatusInvalidInput, be.Msg)
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		defer func() { _ = proj.Close() }() // read-only handles of the call
		if !inRoots(p.opts.Roots, proj.Path) {
			return p.refuse(rec, tools.StatusInvalidInput, fmt.Sprintf("%s must stay inside the server's roots: %s", arg, strings.Join(p.opts.Roots, ", ")))
		}
		args[arg] = proj.Path
		env.Project = proj
	}
	// 4. Classify with the tool's dependencies in force.
	rec.Class = t.Classify(args)
	rec.Execute = args["execute"] == true
	rec.MayStartProcess = t.MayStartProcess(args)
	// 5. Block what is forbidden.
	if rec.Class == tools.Forbidden {
		return p.refuse(rec, tools.StatusBlocked, fmt.Sprintf("%s: this call is classified forbidden and was not run", t.Name()))
	}
	// …and what the managed policy refuses (docs/policy.md, "Rules").
	if b := p.opts.Policy.Check(policy.Call{Tool: t.Name(), Args: args, Class: rec.Class}); b != nil {
		rec.RefusalRule = policy.AuditRule(b.Rule)
		return p.refuse(rec, tools.StatusBlocked, b.Message)
	}
	// 6. Call.
	out, err := t.Call(ctx, &env, args)
	if err != nil {
		var ae *tools.ArgError
		if errors.As(err, &ae) {
			return p.refuse(rec, tools.StatusInvalidInput, ae.Msg)
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	// 7. The result, encoded once, with anything the host must tell once.
	res, err := p.result(rec, out)
	if n, ok := p.opts.Host.(host.Noticer); ok && res != nil {
		if text := n.Notice(t, hc); text != "" {
			// First, except before an error's message, which stays the first block.
			at := 0
			if res.IsError {
				at = 1
			}
			res.Content = slices.Insert(res.Content, at, mcp.Content(&mcp.TextContent{Text: text}))
		}
	}
	return res, err
}

// hostCall is what the request's _meta says about the call: the id Codex gives it
// (callId, the tool_use_id its hooks saw) and its session.
func hostCall(req *mcp.CallToolRequest) host.Call {
	if req == nil || req.Params == nil {
		return host.Call{}
	}
	meta := req.Params.GetMeta()
	str := func(k string) string { s, _ := meta[k].(string); return s }
	return host.Call{ID: str("callId"), Session: str("sessionId")}
}

// refuse answers a call stopped by the pipeline: a result whose status says why.
func (p *pipeline) refuse(rec *CallRecord, status, msg string) (*mcp.CallToolResult, error) {
	return p.result(rec, tools.Refusal(status, msg))
}

// result encodes a tool's output, or a refusal, once. It is the one place that decides
// isError, from the status alone, so that invalid input is answered the same whether
// the schema, the binding or the tool itself found it (docs/architecture.md, "The call
// pipeline"): isError true, the message as the first text block, so the model reads
// it and corrects the call, and the whole result as JSON after it when the result
// carries more than the refusal's own fields. The text is the structured content's
// own bytes, compact: a host that gives the model the text (or both) pays for every
// indentation byte for the rest of the session (issue 24).
func (p *pipeline) result(rec *CallRecord, out any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("encoding result: %v", err)}
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tool result is not a JSON object"}
	}
	var st tools.Status
	if sc, ok := out.(tools.StatusCarrier); ok {
		st = sc.StatusFields()
		rec.Status, rec.errorText = st.Status, st.Error
		if !slices.Contains(p.tool.Statuses(), rec.Status) {
			p.opts.Logger.Error("windows-dev-agent: a tool returned a status it did not declare",
				"tool", p.tool.Name(), "status", rec.Status)
		}
	}
	rec.Result = b
	res := &mcp.CallToolResult{StructuredContent: json.RawMessage(b), IsError: st.IsError()}
	if res.IsError {
		msg := st.Error
		if msg == "" {
			msg = st.Status // a tool that forgot its message still says what happened
		}
		res.Content = []mcp.Content{&mcp.TextContent{Text: msg}}
		if !bareStatus(b) {
			res.Content = append(res.Content, &mcp.TextContent{Text: string(b)})
		}
		return res, nil
	}
	res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
	return res, nil
}

// bareStatus reports whether the encoded result b has no member beyond a refusal's
// own (status, error, execution_started), so its message alone says everything.
func bareStatus(b []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	for k := range m {
		switch k {
		case "status", "error", "execution_started":
		default:
			return false
		}
	}
	return true
}

// inRoots reports whether the bound project path lies in one of roots (always, when
// there are none). It checks the path the binding resolved, after the directory was
// opened, so a link cannot lead a remote call out of the server's roots.
func inRoots(roots []string, path string) bool {
	if len(roots) == 0 {
		return true
	}
	for _, r := range roots {
		if contain.Within(r, path) {
			return true
		}
	}
	return false
}
