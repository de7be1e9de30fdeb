package tomlmini

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// messages is every error description the parser may produce. The fuzz target asserts
// errors come only from this set, i.e. never echo input (configs hold secrets).
var messages = map[string]bool{}

func init() {
	for _, s := range strings.Split(`array of tables conflicts with an existing key
control character in comment
control character in string
document is not valid UTF-8
duplicate key
expected , or ] in an array
expected , or } in an inline table
expected = after a key
expected ] to close a table header
expected ]] to close an array-of-tables header
expected a key
invalid escape sequence
invalid unicode escape
invalid value
key conflicts with an array value
key conflicts with an existing value
key extends an inline table
missing value
multi-line string used as a key
table defined more than once
too many quotes closing a multi-line string
unexpected text after a value or header
unterminated multi-line string
unterminated string
values nested too deeply`, "\n") {
		messages[s] = true
	}
}

func FuzzTOML(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.toml"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("[mcp_servers.x]\ncommand = \"c\"\nargs = [\"a\"]\nenv = { K = \"v\" }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if !messages[pe.Msg] {
				t.Fatalf("unexpected error description %q", pe.Msg)
			}
			if lines := strings.Count(string(data), "\n") + 1; pe.Line < 1 || pe.Line > lines {
				t.Fatalf("line %d outside 1..%d", pe.Line, lines)
			}
			return
		}
		checkTypes(t, doc, 0)
	})
}

// checkTypes asserts the documented value types.
func checkTypes(t *testing.T, v any, depth int) {
	if depth > maxDepth+2 {
		t.Fatalf("value nested deeper than the bound")
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			checkTypes(t, e, depth+1)
		}
	case []any:
		for _, e := range x {
			checkTypes(t, e, depth+1)
		}
	case string, int64, float64, bool:
	default:
		t.Fatalf("unexpected value type %T", v)
	}
}
