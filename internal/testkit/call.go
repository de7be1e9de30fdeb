package testkit

import (
	"encoding/json"
	"testing"

	"github.com/windows-dev-agent/wda/tools"
)

// Decode checks out against tool's output schema and returns it as a client sees it:
// generic JSON, and the encoding itself.
func Decode(t testing.TB, tool tools.Tool, out any) (map[string]any, []byte) {
	t.Helper()
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if err := CheckOutput(tool, m); err != nil {
		t.Fatalf("%s output does not conform to its output schema: %v\n%s", tool.Name(), err, b)
	}
	return m, b
}
