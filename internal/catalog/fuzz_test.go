package catalog_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// FuzzLoad checks that Load never panics and that whatever it accepts satisfies every
// invariant the engine and the router rely on, and survives a YAML round trip.
func FuzzLoad(f *testing.F) {
	f.Add(wda.CapabilitiesYAML)
	f.Add([]byte("a: {description: d, tools: [{name: tl, argv: [tl]}]}"))
	f.Add([]byte("a: {description: d, safety: bogus, tools: [{name: tl, argv: [tl]}]}"))
	f.Add([]byte("- not a mapping"))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := catalog.Load(src)
		if err != nil {
			return
		}
		check(t, c)
		type toolOut struct {
			Name string   `json:"name"`
			Argv []string `json:"argv"`
		}
		type capOut struct {
			Description string    `json:"description"`
			Safety      string    `json:"safety"`
			Tags        []string  `json:"tags,omitempty"`
			Tools       []toolOut `json:"tools"`
		}
		// Round trip through a JSON object written key by key to keep order.
		var buf []byte
		buf = append(buf, '{')
		for i, id := range c.IDs() {
			cp, _ := c.Get(id)
			out := capOut{Description: cp.Description, Safety: string(cp.Safety), Tags: cp.Tags}
			for _, tl := range cp.Tools {
				out.Tools = append(out.Tools, toolOut{tl.Name, tl.Argv})
			}
			kb, _ := jsonMarshal(id)
			vb, _ := jsonMarshal(out)
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(append(append(buf, kb...), ':'), vb...)
		}
		buf = append(buf, '}')
		again, err := catalog.Load(buf)
		if err != nil {
			t.Fatalf("reloading %s: %v", buf, err)
		}
		if diff := cmp.Diff(c.IDs(), again.IDs()); diff != "" {
			t.Fatalf("ids changed on reload (-first +again):\n%s", diff)
		}
		for _, id := range c.IDs() {
			a, _ := c.Get(id)
			b, _ := again.Get(id)
			if diff := cmp.Diff(a, b); diff != "" {
				t.Fatalf("%s changed on reload (-first +again):\n%s", id, diff)
			}
		}
	})
}

func check(t *testing.T, c *catalog.Catalog) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range c.IDs() {
		if id == "" || seen[id] {
			t.Fatalf("empty or duplicate id %q", id)
		}
		seen[id] = true
		cp, ok := c.Get(id)
		if !ok || cp.ID != id || cp.Description == "" || len(cp.Tools) == 0 {
			t.Fatalf("bad capability %+v", cp)
		}
		switch cp.Safety {
		case tools.ReadOnly, tools.Reversible, tools.ApprovalRequired, tools.Forbidden:
		default:
			t.Fatalf("%s: safety %q", id, cp.Safety)
		}
		for _, tl := range cp.Tools {
			if tl.Name == "" || len(tl.Argv) == 0 {
				t.Fatalf("%s: bad tool %+v", id, tl)
			}
			for _, a := range tl.Argv {
				if a == "" {
					t.Fatalf("%s: empty argv element in %+v", id, tl)
				}
			}
		}
	}
}
