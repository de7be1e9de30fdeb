package tomlread

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"
)

// tomlErrors is the whole vocabulary of Parse's errors: fixed words and a position.
var tomlErrors = regexp.MustCompile(`^(syntax error at line [1-9][0-9]*, column [1-9][0-9]*|a key or table is defined more than once or conflicts with another|unreadable document)$`)

// TestTOMLConformance reads the toml-test cases in testdata/toml-test (see its README):
// every valid case decodes to the suite's expected value, every invalid one, TOML 1.1
// additions included, is refused with an error from the vocabulary.
func TestTOMLConformance(t *testing.T) {
	t.Parallel()
	var valid, invalid int
	err := filepath.WalkDir(filepath.Join("testdata", "toml-test"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".toml" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(p)
		doc, perr := Parse(b)
		if strings.Contains(name, "/invalid/") {
			invalid++
			if perr == nil {
				t.Errorf("%s: accepted, but TOML 1.0 forbids it", name)
			} else if !tomlErrors.MatchString(perr.Error()) {
				t.Errorf("%s: error outside the vocabulary: %q", name, perr)
			}
			var te *Error
			if !errors.As(perr, &te) {
				t.Errorf("%s: error of type %T", name, perr)
			}
			return nil
		}
		valid++
		if perr != nil {
			t.Errorf("%s: %v", name, perr)
			return nil
		}
		want, err := os.ReadFile(strings.TrimSuffix(p, ".toml") + ".json")
		if err != nil {
			return err
		}
		var tagged any
		if err := json.Unmarshal(want, &tagged); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if diff := cmp.Diff(untag(t, tagged), plain(doc)); diff != "" {
			t.Errorf("%s (-want +got)\n%s", name, diff)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if valid < 10 || invalid < 20 {
		t.Fatalf("only %d valid and %d invalid cases found", valid, invalid)
	}
}

// untag turns toml-test's tagged JSON ({"type": "integer", "value": "1"}) into the
// values plain produces.
func untag(t *testing.T, v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = untag(t, e)
		}
		return out
	case map[string]any:
		typ, hasType := x["type"].(string)
		val, hasVal := x["value"].(string)
		if hasType && hasVal && len(x) == 2 {
			switch typ {
			case "string", "datetime", "datetime-local", "date-local", "time-local":
				if typ == "datetime" {
					if tm, err := time.Parse(time.RFC3339Nano, val); err == nil {
						return tm.Format(time.RFC3339Nano)
					}
				}
				return val
			case "integer":
				n, err := strconv.ParseInt(val, 10, 64)
				if err != nil {
					t.Fatalf("integer %q: %v", val, err)
				}
				return n
			case "float":
				switch val {
				case "inf", "+inf":
					return math.Inf(1)
				case "-inf":
					return math.Inf(-1)
				case "nan", "+nan", "-nan":
					return "nan"
				}
				f, err := strconv.ParseFloat(val, 64)
				if err != nil {
					t.Fatalf("float %q: %v", val, err)
				}
				return f
			case "bool":
				return val == "true"
			}
		}
		out := map[string]any{}
		for k, e := range x {
			out[k] = untag(t, e)
		}
		return out
	}
	return v
}

// plain maps go-toml's date and time values to their text, the form untag gives.
func plain(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = plain(e)
		}
		return out
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		return fmt.Sprint(x)
	case float64:
		if math.IsNaN(x) {
			return "nan"
		}
	}
	return v
}

type m = map[string]any
type a = []any

// TestParse: the Codex-config reading cases tomlmini was tested with, now read by
// go-toml; the TOML 1.1 form it accepted (an inline table across lines) is refused, as
// TOML 1.0 and Codex refuse it. The one 1.1 addition go-toml 2.3 still accepts is the
// \e escape: it only changes a string's content, never a config's structure.
func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     m // nil: refused
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
		{"inline table across lines (TOML 1.1)", "x = {\n a = 1,\n b = 2,\n}\n", nil},
		{"escapes", `s = "a\tb\n\"q\"\\ \u00e9 \U0001F600"`, m{"s": "a\tb\n\"q\"\\ é 😀"}},
		{"escape \\e (TOML 1.1, accepted)", `s = "\e"`, m{"s": "\x1b"}},
		{"literal keeps backslashes", `s = 'C:\Users\x'`, m{"s": `C:\Users\x`}},
		{"multi-line basic", "s = \"\"\"\nline1\nline2 \\\n   cont\"\"\"", m{"s": "line1\nline2 cont"}},
		{"multi-line quotes at end", `s = """a""""`, m{"s": `a"`}},
		{"multi-line literal", "s = '''\nraw \\n\n'''", m{"s": "raw \\n\n"}},
		{"header-looking text inside a string", "s = \"\"\"\n[mcp_servers.fake]\n\"\"\"\n", m{"s": "[mcp_servers.fake]\n"}},
		{"numbers", "a = 1_000\nb = -17\nc = 0xdead_beef\nd = 0o17\ne = 0b101\nf = 3.14\ng = -1e-3\nh = inf\ni = +0", m{
			"a": int64(1000), "b": int64(-17), "c": int64(0xdeadbeef), "d": int64(15), "e": int64(5), "f": 3.14, "g": -1e-3, "h": math.Inf(1), "i": int64(0)}},
		{"dates", "d = 1979-05-27\nt = 07:32:00\ndt = 1979-05-27 07:32:00Z\no = 1979-05-27T00:32:00.999-07:00", m{
			"d": "1979-05-27", "t": "07:32:00", "dt": "1979-05-27T07:32:00Z", "o": "1979-05-27T00:32:00.999-07:00"}},
		{"array of tables", "[[p]]\nn = 1\n[p.sub]\nx = 1\n[[p]]\nn = 2\n[p.sub]\nx = 2\n", m{"p": a{
			m{"n": int64(1), "sub": m{"x": int64(1)}}, m{"n": int64(2), "sub": m{"x": int64(2)}}}}},
		{"implicit then explicit table", "[a.b]\nx = 1\n[a]\ny = 2\n", m{"a": m{"b": m{"x": int64(1)}, "y": int64(2)}}},
		{"whitespace in headers and keys", "[ a . \"b\" ]\n c . d = 1", m{"a": m{"b": m{"c": m{"d": int64(1)}}}}},
		{"BOM and CRLF", "\xEF\xBB\xBFa = 1\r\nb = 'x'\r\n", m{"a": int64(1), "b": "x"}},
		{"empty quoted key", `"" = 1`, m{"": int64(1)}},
		{"table redefined after dotted keys", "[a]\nb.c = 1\n[a.b]\nd = 2\n", nil},
		{"duplicate key", "a = 1\na = 2", nil},
		{"table twice", "[a]\n[a]", nil},
		{"bare word value", "a = secretvalue", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if tt.want == nil {
				if err == nil || !tomlErrors.MatchString(err.Error()) {
					t.Fatalf("got %v, %v; want a refusal from the vocabulary", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(any(tt.want), plain(got)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestCodexConfigFixture(t *testing.T) {
	t.Parallel()
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
	if diff := cmp.Diff(any(want), doc["mcp_servers"]); diff != "" {
		t.Errorf("mcp_servers (-want +got)\n%s", diff)
	}
	if doc["developer_instructions"] != "Prefer small diffs.\n[not_a_table]\n" {
		t.Errorf("developer_instructions = %q", doc["developer_instructions"])
	}
	if got := len(doc["profiles"].(m)["list"].(a)); got != 2 {
		t.Errorf("profiles.list has %d tables", got)
	}
}

// FuzzTOML asserts Parse never panics, its errors come only from the vocabulary
// (never echo input: configs hold secrets) and its values are of the documented types.
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
			if !tomlErrors.MatchString(err.Error()) {
				t.Fatalf("error outside the vocabulary: %q", err)
			}
			var line int
			if i := strings.Index(err.Error(), " at line "); i >= 0 {
				fmt.Sscanf(err.Error()[i:], " at line %d", &line)
				if lines := strings.Count(string(data), "\n") + 1; line > lines {
					t.Fatalf("line %d beyond the input's %d", line, lines)
				}
			}
			return
		}
		checkTypes(t, doc)
	})
}

func checkTypes(t *testing.T, v any) {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			checkTypes(t, e)
		}
	case []any:
		for _, e := range x {
			checkTypes(t, e)
		}
	case string, int64, float64, bool, time.Time, toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
	default:
		t.Fatalf("unexpected value type %T", v)
	}
}
