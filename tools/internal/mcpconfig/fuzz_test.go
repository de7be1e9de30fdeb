package mcpconfig

import (
	"encoding/json"
	"testing"

	"github.com/windows-dev-agent/wda/internal/guard"
	"github.com/windows-dev-agent/wda/tools/internal/tomlread"
)

// FuzzSummarize asserts that a summary never carries input text other than server
// names: every string in the marshaled summary is the file name, a server name, a
// transport kind or a fixed error, and every object key is a known field.
func FuzzSummarize(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"a":{"command":"SECRET","args":["x"],"env":{"K":"V"},"url":"u"}}}`), false)
	f.Add([]byte(`{"mcpServers":{"a":"scalar","b":{"url":"u","args":"s"},"c":null,"d":[1]}}`), false)
	f.Add([]byte(`{"mcpServers":"x"}`), false)
	f.Add([]byte("[mcp_servers.a]\ncommand='c'\nargs=['s']\n[mcp_servers.a.env]\nK='v'\n"), true)
	f.Add([]byte("mcp_servers = [1]\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, isTOML bool) {
		var doc map[string]any
		var err error
		key := "mcpServers"
		if isTOML {
			key = "mcp_servers"
			doc, err = tomlread.Parse(data)
		} else {
			doc, err = guard.DecodeObject(data)
		}
		if err != nil {
			return
		}
		c := Summarize("FILE", doc, key)
		_, _, malformed := Totals([]Config{c})
		b, err := json.Marshal(map[string]any{"config": c, "malformed": malformed})
		if err != nil {
			t.Fatal(err)
		}
		allowed := map[string]bool{"FILE": true, "command": true, "url": true, "unknown": true,
			MissingCommandURL: true, "mcpServers is not an object": true, "mcp_servers is not a table": true}
		if servers, ok := doc[key].(map[string]any); ok {
			for name := range servers {
				allowed[name] = true
			}
		}
		fields := map[string]bool{"config": true, "malformed": true, "file": true, "error": true, "servers": true,
			"server": true, "name": true, "valid": true, "transport": true, "has_command": true, "has_url": true,
			"arg_count": true, "has_env": true}
		var out any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				if !allowed[x] {
					t.Fatalf("summary carries input text %q: %s", x, b)
				}
			case map[string]any:
				for k, e := range x {
					if !fields[k] {
						t.Fatalf("unexpected field %q: %s", k, b)
					}
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			}
		}
		walk(out)
	})
}
