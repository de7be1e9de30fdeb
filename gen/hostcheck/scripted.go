package hostcheck

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// step is one scripted model turn: call Tool with Input. Namespace is the Responses
// API's tool namespace (Codex groups an MCP server's tools under one).
type step struct {
	Tool      string
	Namespace string
	Input     map[string]any
}

// script plays steps in order, one per model turn of the main agent, then ends the
// turn with a text. It records the tool names each turn offered.
type script struct {
	mu      sync.Mutex
	steps   []step
	next    int
	offered map[string]bool
	turns   int
}

func newScript(steps ...step) *script { return &script{steps: steps, offered: map[string]bool{}} }

// turn returns the next step, or nil when the script is done.
func (s *script) turn(offered []string) *step {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns++
	for _, n := range offered {
		s.offered[n] = true
	}
	if s.next >= len(s.steps) {
		return nil
	}
	st := &s.steps[s.next]
	s.next++
	return st
}

// Offered reports whether any turn offered a tool of this name.
func (s *script) Offered(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offered[name]
}

// Played is how many steps were handed out.
func (s *script) Played() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

type sse struct {
	w http.ResponseWriter
	b strings.Builder
}

func (e *sse) event(name string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(&e.b, "event: %s\ndata: %s\n\n", name, b)
}

func (e *sse) flush() {
	e.w.Header().Set("Content-Type", "text/event-stream")
	_, _ = e.w.Write([]byte(e.b.String()))
}

// anthropicModel is a stand-in for the Anthropic Messages API as Claude Code calls it
// (POST /v1/messages, streaming or not; count_tokens). Only the main agent's requests
// (those offering a shell tool, Bash or PowerShell) advance the script; side requests
// (titles, summaries) get a short text.
func anthropicModel(s *script) http.Handler {
	ids := 0
	var mu sync.Mutex
	id := func(prefix string) string {
		mu.Lock()
		defer mu.Unlock()
		ids++
		return fmt.Sprintf("%s%02d", prefix, ids)
	}
	errorBody := map[string]any{"type": "error", "error": map[string]any{"type": "not_found_error", "message": "not served"}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodHead:
			return
		case r.Method == http.MethodPost && strings.Contains(r.URL.Path, "count_tokens"):
			writeJSON(w, map[string]any{"input_tokens": 100})
			return
		case r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/messages"):
			w.WriteHeader(http.StatusNotFound)
			writeJSON(w, errorBody)
			return
		}
		var req struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
			Tools  []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if err := readJSON(r, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var offered []string
		main := false
		for _, t := range req.Tools {
			offered = append(offered, t.Name)
			main = main || t.Name == "Bash" || t.Name == "PowerShell"
		}
		block := map[string]any{"type": "text", "text": "ok"}
		if main {
			if st := s.turn(offered); st != nil {
				block = map[string]any{"type": "tool_use", "id": id("toolu_scripted"), "name": st.Tool, "input": st.Input}
			} else {
				block = map[string]any{"type": "text", "text": "SCRIPT DONE"}
			}
		}
		stop := "end_turn"
		if block["type"] == "tool_use" {
			stop = "tool_use"
		}
		msg := map[string]any{"id": id("msg_scripted"), "type": "message", "role": "assistant", "model": req.Model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}
		if !req.Stream {
			msg["content"], msg["stop_reason"] = []any{block}, stop
			writeJSON(w, msg)
			return
		}
		e := &sse{w: w}
		e.event("message_start", map[string]any{"type": "message_start", "message": msg})
		if block["type"] == "text" {
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
		} else {
			input, _ := json.Marshal(block["input"])
			e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
			e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		e.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
		e.event("message_stop", map[string]any{"type": "message_stop"})
		e.flush()
	})
}

// responsesModel is a stand-in for the OpenAI Responses API as Codex calls it
// (POST …/responses, streamed; GET …/models). Every turn advances the script.
func responsesModel(s *script) http.Handler {
	var mu sync.Mutex
	n := 0
	next := func() int {
		mu.Lock()
		defer mu.Unlock()
		n++
		return n
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "models") {
			writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "scripted-model", "object": "model"}}, "models": []any{}})
			return
		}
		if r.Method != http.MethodPost || !strings.HasSuffix(strings.TrimRight(r.URL.Path, "/"), "/responses") {
			w.WriteHeader(http.StatusNotFound)
			writeJSON(w, map[string]any{})
			return
		}
		var req struct {
			Tools []struct {
				Name  string `json:"name"`
				Type  string `json:"type"`
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			} `json:"tools"`
		}
		if err := readJSON(r, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var offered []string
		for _, t := range req.Tools {
			offered = append(offered, t.Name)
			for _, inner := range t.Tools { // a namespace of tools
				offered = append(offered, t.Name+"__"+inner.Name)
			}
		}
		var item map[string]any
		if st := s.turn(offered); st != nil {
			args, _ := json.Marshal(st.Input)
			i := next()
			item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", i), "call_id": fmt.Sprintf("call_scripted%02d", i),
				"name": st.Tool, "arguments": string(args)}
			if st.Namespace != "" {
				item["namespace"] = st.Namespace
			}
		} else {
			item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", next()), "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": "SCRIPT DONE", "annotations": []any{}}}}
		}
		rid := fmt.Sprintf("resp_%d", next())
		e := &sse{w: w}
		e.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": rid}})
		e.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
		e.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		e.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": rid,
			"usage": map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 5,
				"output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}})
		e.flush()
	})
}
