package tomlmini

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type m = map[string]any
type a = []any

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     m
	}{
		{"empty", "", m{}},
		{"comments and blanks", "# c\n\n  # d\r\n", m{}},
		{"codex mcp servers", `
model = "o3"   # trailing comment
[mcp_servers.docs]
command = "npx"
args = ["-y", "@org/server", "--token=abc"]
[mcp_servers.docs.env]
API_KEY = "k"

[mcp_servers."quoted.name"]
url = 'https://example.test/mcp'
env = { A = "1", B = "2" }
`, m{"model": "o3", "mcp_servers": m{
			"docs":        m{"command": "npx", "args": a{"-y", "@org/server", "--token=abc"}, "env": m{"API_KEY": "k"}},
			"quoted.name": m{"url": "https://example.test/mcp", "env": m{"A": "1", "B": "2"}},
		}}},
		{"multi-line array with comments and trailing comma", "x = [\n  1, # one\n  2,\n]\n", m{"x": a{int64(1), int64(2)}}},
		{"dotted keys", "a.b.c = 1\na.d = true\n", m{"a": m{"b": m{"c": int64(1)}, "d": true}}},
		{"dotted inline", "s = { env.X = 'y' }", m{"s": m{"env": m{"X": "y"}}}},
		{"nested inline and arrays", `x = { a = [ { b = 1 }, [2, "3"] ] }`, m{"x": m{"a": a{m{"b": int64(1)}, a{int64(2), "3"}}}}},
		{"inline table across lines", "x = {\n a = 1,\n b = 2,\n}\n", m{"x": m{"a": int64(1), "b": int64(2)}}},
		{"escapes", `s = "a\tb\n\"q\"\\ \u00e9 \U0001F600 \e"`, m{"s": "a\tb\n\"q\"\\ é 😀 \x1b"}},
		{"literal keeps backslashes", `s = 'C:\Users\x'`, m{"s": `C:\Users\x`}},
		{"multi-line basic", "s = \"\"\"\nline1\nline2 \\\n   cont\"\"\"", m{"s": "line1\nline2 cont"}},
		{"multi-line quotes at end", `s = """a""""`, m{"s": `a"`}},
		{"multi-line literal", "s = '''\nraw \\n\n'''", m{"s": "raw \\n\n"}},
		{"header-looking text inside a string", "s = \"\"\"\n[mcp_servers.fake]\n\"\"\"\n", m{"s": "[mcp_servers.fake]\n"}},
		{"numbers", "a = 1_000\nb = -17\nc = 0xdead_beef\nd = 0o17\ne = 0b101\nf = 3.14\ng = -1e-3\nh = inf\ni = +0", m{
			"a": int64(1000), "b": int64(-17), "c": int64(0xdeadbeef), "d": int64(15), "e": int64(5), "f": 3.14, "g": -1e-3, "h": math.Inf(1), "i": int64(0)}},
		{"dates as text", "d = 1979-05-27\nt = 07:32:00\ndt = 1979-05-27 07:32:00Z\no = 1979-05-27T00:32:00.999-07:00", m{
			"d": "1979-05-27", "t": "07:32:00", "dt": "1979-05-27 07:32:00Z", "o": "1979-05-27T00:32:00.999-07:00"}},
		{"array of tables", "[[p]]\nn = 1\n[p.sub]\nx = 1\n[[p]]\nn = 2\n[p.sub]\nx = 2\n", m{"p": a{
			m{"n": int64(1), "sub": m{"x": int64(1)}}, m{"n": int64(2), "sub": m{"x": int64(2)}}}}},
		{"implicit then explicit table", "[a.b]\nx = 1\n[a]\ny = 2\n", m{"a": m{"b": m{"x": int64(1)}, "y": int64(2)}}},
		{"whitespace in headers and keys", "[ a . \"b\" ]\n c . d = 1", m{"a": m{"b": m{"c": m{"d": int64(1)}}}}},
		{"BOM and CRLF", "\xEF\xBB\xBFa = 1\r\nb = 'x'\r\n", m{"a": int64(1), "b": "x"}},
		{"empty quoted key", `"" = 1`, m{"": int64(1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	deep := ""
	for i := 0; i < 200; i++ {
		deep += "["
	}
	tests := []struct {
		name, in, want string
	}{
		{"duplicate key", "a = 1\na = 2", "line 2: duplicate key"},
		{"table twice", "[a]\n[a]", "line 2: table defined more than once"},
		{"table over value", "a = 1\n[a]", "line 2: table defined more than once"},
		{"header into inline table", "a = {x = 1}\n[a.b]", "line 2: key extends an inline table"},
		{"array of tables over table", "[a]\n[[a]]", "line 2: array of tables conflicts with an existing key"},
		{"dotted over scalar", "a = 1\na.b = 2", "line 2: key conflicts with an existing value"},
		{"missing value", "a =\n", "line 1: missing value"},
		{"missing equals", "a 1", "line 1: expected = after a key"},
		{"bare word value", "a = secretvalue", "line 1: invalid value"},
		{"unterminated string", "a = \"sk-live-123\nb = 1", "line 1: unterminated string"},
		{"unterminated multi-line", "a = '''\nx", "line 2: unterminated multi-line string"},
		{"bad escape", `a = "\q"`, "line 1: invalid escape sequence"},
		{"bad unicode", `a = "\uD800"`, "line 1: invalid unicode escape"},
		{"text after value", "a = 1 2", "line 1: unexpected text after a value or header"},
		{"unclosed header", "[a", "line 1: expected ] to close a table header"},
		{"unclosed array", "a = [1, 2", "line 1: expected , or ] in an array"},
		{"leading zero", "a = 007", "line 1: invalid value"},
		{"double underscore", "a = 1__0", "line 1: invalid value"},
		{"control char", "a = \"x\x01\"", "line 1: control character in string"},
		{"invalid UTF-8", "a = \"\xff\"", "line 1: document is not valid UTF-8"},
		{"too deep", "a = " + deep, "line 1: values nested too deeply"},
		{"inline missing comma", "a = {x = 1 y = 2}", "line 1: expected , or } in an inline table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var pe *Error
			if !errors.As(err, &pe) || err.Error() != tt.want {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestCodexConfigFixture(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "codex-config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	want := m{
		"docs": m{"command": "npx", "args": a{"-y", "@acme/docs-mcp", "--api-key", "sk-test"},
			"startup_timeout_sec": 20.5, "env": m{"DOCS_TOKEN": "tok"}},
		"remote": m{"url": "https://mcp.example.test/v1", "bearer_token_env_var": "REMOTE_TOKEN",
			"http_headers": m{"X-Team": "a"}},
		"odd name": m{"command": `C:\Tools\server.exe`, "env": m{"PATH": `C:\bin`, "QUOTED KEY": "v"}},
	}
	if diff := cmp.Diff(want, doc["mcp_servers"]); diff != "" {
		t.Errorf("mcp_servers (-want +got)\n%s", diff)
	}
	if doc["developer_instructions"] != "Prefer small diffs.\n[not_a_table]\n" {
		t.Errorf("developer_instructions = %q", doc["developer_instructions"])
	}
	if got := len(doc["profiles"].(m)["list"].(a)); got != 2 {
		t.Errorf("profiles.list has %d tables", got)
	}
}
