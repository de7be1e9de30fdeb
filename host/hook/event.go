package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Host event names as they appear in hook output and audit records.
const (
	eventPreToolUse         = "PreToolUse"
	eventPostToolUse        = "PostToolUse"
	eventPostToolUseFailure = "PostToolUseFailure"
	eventPermissionRequest  = "PermissionRequest"
)

// maxEventBytes bounds the stdin a hook decodes. The hooks see Bash and PowerShell
// command lines and Windows Dev Agent's own calls and results; none comes near 1 MiB
// (the shell classifier itself stops at 64 KiB). A larger event is answered without
// being decoded, so every hook's work is bounded whatever a host sends
// (docs/safety/shell-classifier.md, "Limits").
const maxEventBytes = 1 << 20

// errEventTooLarge is readEvent's error for an event over maxEventBytes. The
// PreToolUse handlers answer it without decoding anything (Claude: ask; Codex: deny).
var errEventTooLarge = errors.New("the event is larger than 1 MiB, the limit of what the hook decodes")

// event is one decoded hook payload. Numbers stay json.Number, as after validation.
type event map[string]any

// readEvent reads and decodes stdin: exactly one JSON object (a UTF-8 BOM and
// surrounding white space are tolerated).
func readEvent(r io.Reader) (event, error) {
	if r == nil {
		return nil, errors.New("no input")
	}
	data, err := io.ReadAll(io.LimitReader(r, maxEventBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the event: %v", err)
	}
	if len(data) > maxEventBytes {
		drain(r)
		return nil, errEventTooLarge
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the event is not JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("the event has data after its JSON value")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the event is not a JSON object")
	}
	return m, nil
}

// drain reads r to its end and discards it. A host whose write to the hook's stdin
// fails (EPIPE after the hook exits) counts the hook as failed and lets the call
// proceed, so an answer to an oversized event must outlive the host's write. Discarding
// costs a copy per 64 KiB, no decoding.
func drain(r io.Reader) {
	buf := make([]byte, 64<<10)
	for {
		if _, err := r.Read(buf); err != nil {
			return
		}
	}
}

// str is a string field, "" when absent or not a string.
func (e event) str(key string) string { s, _ := e[key].(string); return s }

// toolInput is tool_input as an object; anything else is {}.
func (e event) toolInput() map[string]any {
	if m, ok := e["tool_input"].(map[string]any); ok {
		return m
	}
	return map[string]any{}
}

// number is a numeric field, nil when absent or not a finite number.
func (e event) number(key string) *float64 {
	n, ok := e[key].(json.Number)
	if !ok {
		return nil
	}
	f, err := n.Float64()
	if err != nil {
		return nil
	}
	return &f
}
