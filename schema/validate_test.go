package schema

import (
	"encoding/json"
	"testing"
)

// TestSyntaxErrorsNameOnlyTheirPlace: a JSON syntax error gives a line and column and
// never a character of the text (which may be a file's content).
func TestSyntaxErrorsNameOnlyTheirPlace(t *testing.T) {
	t.Parallel()
	type in struct {
		Path string `json:"path,omitempty"`
	}
	v := NewValidator(For[in]())
	for raw, want := range map[string]string{
		"{\"path\":\"/etc/shadow\"}x": "tool arguments must be a single JSON object",
		"{\"path\":\"root:x:0\"":      "tool arguments must be a JSON object: invalid JSON: it ends before the object is complete",
		"{\n\"path\": r}":             "tool arguments must be a JSON object: invalid JSON at line 2, column 9",
		"[1]":                         "tool arguments must be an object",
	} {
		_, err := v.Validate(json.RawMessage(raw))
		if err == nil || err.Error() != want {
			t.Errorf("Validate(%q) = %v, want %q", raw, err, want)
		}
	}
}
