package hostcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// maxRequest bounds what a stand-in reads of one request.
const maxRequest = 16 << 20

// loopback serves h on 127.0.0.1 until Close.
type loopback struct {
	URL string
	srv *http.Server
}

func serve(h http.Handler) (*loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }() // returns when Close is called
	return &loopback{URL: "http://" + ln.Addr().String(), srv: srv}, nil
}

func (l *loopback) Close() error { return l.srv.Close() }

// toolCaller is the shared behaviour of the model stand-ins: on the first turn that
// offers a tool whose name matches Tool, call it once with Args; afterwards answer
// with a short text. It records the tool names offered and the tool results it was
// given.
type toolCaller struct {
	Tool *regexp.Regexp
	Args map[string]any

	mu      sync.Mutex
	offered map[string]bool
	results []string
	called  string
}

func newToolCaller(tool string, args map[string]any) *toolCaller {
	return &toolCaller{Tool: regexp.MustCompile(tool), Args: args, offered: map[string]bool{}}
}

// turn decides one model turn from the offered tool names and the tool results seen
// so far in the conversation; it returns the tool to call, or "".
func (c *toolCaller) turn(offered, results []string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range offered {
		c.offered[n] = true
	}
	if len(results) > 0 {
		c.results = append(c.results[:0], results...)
		return ""
	}
	for _, n := range offered {
		if c.Tool.MatchString(n) {
			c.called = n
			return n
		}
	}
	return ""
}

// Offered reports whether the client offered a tool of this name.
func (c *toolCaller) Offered(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offered[name]
}

// Called is the tool the stand-in called ("" when none matched).
func (c *toolCaller) Called() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.called
}

// Result is the tool results of the last turn, joined.
func (c *toolCaller) Result() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.results, "\n")
}

func (c *toolCaller) answer() string {
	return "FAKE-DONE result=" + strings.ReplaceAll(c.Result(), "\n", " ")
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func readJSON(r *http.Request, v any) error {
	return json.NewDecoder(io.LimitReader(r.Body, maxRequest)).Decode(v)
}

// openAIModel is an OpenAI-compatible chat/completions stand-in (the Copilot CLI's
// custom-provider mode).
func openAIModel(c *toolCaller) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "gpt-4.1", "object": "model"}}})
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Stream   bool   `json:"stream"`
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
			Tools []struct {
				Function struct{ Name string } `json:"function"`
			} `json:"tools"`
		}
		if err := readJSON(r, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var offered, results []string
		for _, t := range req.Tools {
			offered = append(offered, t.Function.Name)
		}
		for _, m := range req.Messages {
			if m.Role == "tool" {
				results = append(results, contentText(m.Content))
			}
		}
		msg := map[string]any{"role": "assistant"}
		finish := "stop"
		if tool := c.turn(offered, results); tool != "" {
			args, _ := json.Marshal(c.Args)
			msg["content"] = nil
			msg["tool_calls"] = []any{map[string]any{"id": "call_1", "type": "function",
				"function": map[string]any{"name": tool, "arguments": string(args)}}}
			finish = "tool_calls"
		} else {
			msg["content"] = c.answer()
		}
		usage := map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
		if !req.Stream {
			writeJSON(w, map[string]any{"id": "c1", "object": "chat.completion", "created": 1, "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
			return
		}
		delta := map[string]any{"role": "assistant"}
		if calls, ok := msg["tool_calls"].([]any); ok {
			calls[0].(map[string]any)["index"] = 0
			delta["tool_calls"] = calls
		} else {
			delta["content"] = msg["content"]
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(v map[string]any) {
			v["id"], v["object"], v["created"], v["model"] = "c1", "chat.completion.chunk", 1, req.Model
			b, _ := json.Marshal(v)
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}})
		chunk(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}, "usage": usage})
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
	return mux
}

// contentText is a chat message's content as text (a string, or parts with text).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct{ Text string }
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// geminiModel is a Gemini API (generateContent, streamGenerateContent, countTokens)
// stand-in.
func geminiModel(c *toolCaller) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, ":countTokens") {
			writeJSON(w, map[string]any{"totalTokens": 1})
			return
		}
		stream := strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
		if !stream && !strings.HasSuffix(r.URL.Path, ":generateContent") {
			w.WriteHeader(http.StatusNotFound)
			writeJSON(w, map[string]any{"error": map[string]any{"code": 404, "message": "not served", "status": "NOT_FOUND"}})
			return
		}
		var req struct {
			Contents []struct {
				Parts []struct {
					FunctionResponse *struct {
						Response json.RawMessage `json:"response"`
					} `json:"functionResponse"`
				} `json:"parts"`
			} `json:"contents"`
			Tools []struct {
				FunctionDeclarations []struct{ Name string } `json:"functionDeclarations"`
			} `json:"tools"`
			GenerationConfig struct {
				ResponseMimeType   string          `json:"responseMimeType"`
				ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
				ResponseSchema     json.RawMessage `json:"responseSchema"`
			} `json:"generationConfig"`
		}
		if err := readJSON(r, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var parts []any
		gc := req.GenerationConfig
		if gc.ResponseMimeType == "application/json" || len(gc.ResponseJSONSchema) > 0 || len(gc.ResponseSchema) > 0 {
			// The client's own routing and next-speaker questions want JSON.
			b, _ := json.Marshal(map[string]any{"next_speaker": "user", "reasoning": "stand-in", "model_choice": "flash",
				"complexity_reasoning": "stand-in", "complexity_score": 1})
			parts = []any{map[string]any{"text": string(b)}}
		} else {
			var offered, results []string
			for _, t := range req.Tools {
				for _, d := range t.FunctionDeclarations {
					offered = append(offered, d.Name)
				}
			}
			for _, ct := range req.Contents {
				for _, p := range ct.Parts {
					if p.FunctionResponse != nil {
						results = append(results, string(p.FunctionResponse.Response))
					}
				}
			}
			if tool := c.turn(offered, results); tool != "" {
				parts = []any{map[string]any{"functionCall": map[string]any{"name": tool, "args": c.Args}}}
			} else {
				parts = []any{map[string]any{"text": c.answer()}}
			}
		}
		resp := map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP", "index": 0}}, "usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1,
			"totalTokenCount": 2}, "modelVersion": "stand-in"}
		if !stream {
			writeJSON(w, resp)
			return
		}
		b, _ := json.Marshal(resp)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
	})
}
