package audit

import (
	"testing"
	"time"
)

// TestCaller: a server record keeps the remote caller's token name when it has an
// identifier's shape and drops anything else (docs/audit.md).
func TestCaller(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"ci-agent": "ci-agent", "": "", "has space": "", "a\nb": ""} {
		r := FromCall(Call{Tool: "env_inspect", Class: "read_only", Caller: in, Result: []byte(`{"status":"ok"}`)}).normalize(time.Now())
		if r.Caller != want {
			t.Errorf("Caller %q: record has %q, want %q", in, r.Caller, want)
		}
	}
}
