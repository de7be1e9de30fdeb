package mcpconfig

import (
	"encoding/json"
	"slices"
)

// Server is the structural summary of one configured server.
type Server struct {
	Name       string `json:"name" jsonschema:"required"`
	Valid      bool   `json:"valid" jsonschema:"required"`
	Transport  string `json:"transport,omitempty" jsonschema:"enum=command,enum=url,enum=unknown"`
	HasCommand bool   `json:"has_command,omitempty"`
	HasURL     bool   `json:"has_url,omitempty"`
	ArgCount   *int   `json:"arg_count,omitempty" jsonschema:"nullable"`
	HasEnv     bool   `json:"has_env,omitempty"`
	// object is false for a server entry that is not an object: its summary is only
	// {name, valid:false} (docs/tools/mcp_audit.md).
	object bool
}

// MarshalJSON writes {name, valid} for a non-object entry, and otherwise every field,
// with arg_count null when args is not a list.
func (s Server) MarshalJSON() ([]byte, error) {
	if !s.object {
		return json.Marshal(struct {
			Name  string `json:"name"`
			Valid bool   `json:"valid"`
		}{s.Name, s.Valid})
	}
	return json.Marshal(struct {
		Name       string `json:"name"`
		Valid      bool   `json:"valid"`
		Transport  string `json:"transport"`
		HasCommand bool   `json:"has_command"`
		HasURL     bool   `json:"has_url"`
		ArgCount   *int   `json:"arg_count"`
		HasEnv     bool   `json:"has_env"`
	}{s.Name, s.Valid, s.Transport, s.HasCommand, s.HasURL, s.ArgCount, s.HasEnv})
}

// Config is the summary of one config file. A file that could not be read or parsed
// has Error set and no servers.
type Config struct {
	File    string   `json:"file" jsonschema:"required"`
	Error   string   `json:"error,omitempty"`
	Servers []Server `json:"servers" jsonschema:"required"`
}

// Malformed is one problem: a file error ({file, error}) or an invalid server
// ({file, server, error: "missing command/url"}).
type Malformed struct {
	File   string  `json:"file" jsonschema:"required"`
	Server *string `json:"server,omitempty"`
	Error  string  `json:"error" jsonschema:"required"`
}

// MissingCommandURL is the error of an invalid server entry.
const MissingCommandURL = "missing command/url"

// Summarize summarises the servers under key ("mcpServers" in JSON configs,
// "mcp_servers" in a Codex config.toml) of a decoded document.
func Summarize(file string, doc map[string]any, key string) Config {
	c := Config{File: file, Servers: []Server{}}
	raw, present := doc[key]
	if !present {
		return c
	}
	servers, ok := raw.(map[string]any)
	if !ok {
		if key == "mcp_servers" {
			c.Error = "mcp_servers is not a table"
		} else {
			c.Error = key + " is not an object"
		}
		return c
	}
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		c.Servers = append(c.Servers, summarizeServer(n, servers[n]))
	}
	return c
}

func summarizeServer(name string, spec any) Server {
	m, ok := spec.(map[string]any)
	if !ok {
		return Server{Name: name}
	}
	s := Server{Name: name, object: true,
		HasCommand: truthy(m["command"]), HasURL: truthy(m["url"]), HasEnv: truthy(m["env"])}
	switch {
	case s.HasCommand:
		s.Transport = "command"
	case s.HasURL:
		s.Transport = "url"
	default:
		s.Transport = "unknown"
	}
	s.Valid = s.HasCommand || s.HasURL
	switch args := m["args"].(type) {
	case []any:
		n := len(args)
		s.ArgCount = &n
	case nil:
		if _, present := m["args"]; !present {
			n := 0
			s.ArgCount = &n
		}
	}
	return s
}

// truthy is presence: not absent, null, false, zero or empty.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case float64:
		return x != 0
	case int64:
		return x != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// Totals aggregates summaries: the number of servers, names configured more than once
// (sorted), and every problem.
func Totals(configs []Config) (count int, duplicates []string, malformed []Malformed) {
	seen := map[string]int{}
	duplicates, malformed = []string{}, []Malformed{}
	for _, c := range configs {
		if c.Error != "" {
			malformed = append(malformed, Malformed{File: c.File, Error: c.Error})
		}
		for _, s := range c.Servers {
			count++
			if seen[s.Name]++; seen[s.Name] == 2 {
				duplicates = append(duplicates, s.Name)
			}
			if !s.Valid {
				malformed = append(malformed, Malformed{File: c.File, Server: &s.Name, Error: MissingCommandURL})
			}
		}
	}
	slices.Sort(duplicates)
	return count, duplicates, malformed
}
