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

// maxEventBytes bounds the stdin a hook reads. Hook events carry a tool's input and,
// for PostToolUse, its response; Windows Dev Agent's own results are far smaller. A
// larger event is refused like unparsable input rather than read without bound.
const maxEventBytes = 32 << 20

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
		return nil, fmt.Errorf("the event is larger than %d bytes", maxEventBytes)
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
