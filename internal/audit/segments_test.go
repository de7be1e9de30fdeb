package audit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseRecord: a line is reduced to what Append would have kept: fields the record
// type has not got (a legacy line's arguments and output) are dropped, and values
// outside their vocabulary are cleared.
func TestParseRecord(t *testing.T) {
	t.Parallel()
	const secret = "tok-31f9"
	tests := []struct {
		line string
		want Record
		ok   bool
	}{
		{`{"event":"PostToolUse","tool_name":"Bash","tool_input":{"command":"echo ` + secret + `"},"tool_response":"` + secret + `"}`,
			Record{Event: "PostToolUse", LifecycleEvent: "PostToolUse", ToolName: "Bash"}, true},
		{`{"schema_version":1,"ts":"2026-01-02T03:04:05.000000Z","lifecycle_event":"tools/call","execution_outcome":"weird","result_status":"Has Space ` + secret + `","safety_class":"` + secret + `","session_id":"bad id ` + secret + `","permission_decision":"maybe","host":"x y"}`,
			Record{SchemaVersion: 1, TS: "2026-01-02T03:04:05.000000Z", LifecycleEvent: "tools/call", Event: "tools/call"}, true},
		{`{"ts":"` + secret + `","event":"PreToolUse"}`, Record{Event: "PreToolUse", LifecycleEvent: "PreToolUse"}, true},
		{`{"duration_ms":"slow"}`, Record{}, false},
		{`[1,2]`, Record{}, false},
		{`{"a":1} trailing`, Record{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseRecord([]byte(tt.line))
		if ok != tt.ok {
			t.Fatalf("%s: ok %v", tt.line, ok)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.line, diff)
		}
		if l, _ := got.line(); strings.Contains(string(l), secret) {
			t.Errorf("%s: the secret survived", tt.line)
		}
	}
}

// FuzzParseRecord: whatever a line holds, what ParseRecord keeps is a fixed point (the
// record's own line parses back to it) and holds only values of their shapes.
func FuzzParseRecord(f *testing.F) {
	for _, s := range []string{`{"event":"PreToolUse","tool_input":{"command":"x"}}`,
		`{"schema_version":1,"ts":"2026-01-02T03:04:05.000000Z","lifecycle_event":"tools/call","execution_outcome":"failed","result_status":"completed","duration_ms":1.5,"caller":"alice"}`,
		`{"session_id":"a b","safety_class":"forbidden","permission_decision":"deny"}`, `[]`, `{"duration_ms":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, ok := ParseRecord(line)
		if !ok {
			return
		}
		b, err := r.line()
		if err != nil {
			return // e.g. NaN cannot be encoded; the export drops such a field's record
		}
		r2, ok := ParseRecord(b)
		if !ok {
			t.Fatalf("the kept record's line does not parse: %s", b)
		}
		if diff := cmp.Diff(r, r2); diff != "" {
			t.Fatalf("not a fixed point (-first +second):\n%s", diff)
		}
		for _, s := range []string{r.SessionID, r.ToolName, r.ToolUseID, r.AgentID, r.AgentType, r.Host, r.Capability, r.RefusalField, r.LifecycleEvent, r.Event} {
			if s != "" && identifier(s) != s {
				t.Fatalf("%q kept", s)
			}
		}
	})
}
