package policy

import (
	"errors"
	"testing"
)

// FuzzParse: Parse never panics, an error is always a *SyntaxError with a position
// inside the document, and a parsed policy checks any call without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range []string{fullDoc, `{}`, `{"allowed_capabilities": []}`, `{"audit": {"otlp": {"headers": {"a": "b"}}}}`,
		"{\n\"bogus\": 1}", `{"packages": {"allowed_ids": ["Git.Git"]}} x`, `[`, `{"max_execute_class": 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		p, err := Parse(doc)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || se.Line > len(doc)+1 {
				t.Fatalf("error %v (%T) is not a positioned SyntaxError", err, err)
			}
			return
		}
		st := &State{Source: "f", Policy: p}
		for _, tool := range []string{"capability_run", "package_install", "sandbox_run", "env_inspect"} {
			st.Check(Call{Tool: tool, Args: map[string]any{"capability": "x", "extra_args": []any{"y"}}, Class: "approval-required"})
		}
	})
}
