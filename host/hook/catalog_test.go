package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// atCap writes a replacement catalog as large as a catalog may be: MaxCapabilities
// capabilities in just under MaxBytes.
func atCap(tb testing.TB) (path, lastID string) {
	tb.Helper()
	line := func(i int, pad string) string {
		return fmt.Sprintf("cap-%05d: {description: \"d%s\", safety: reversible, tools: [{name: tl, argv: [tl, check, ./...]}]}\n", i, pad)
	}
	per := catalog.MaxBytes / catalog.MaxCapabilities
	pad := strings.Repeat("x", per-len(line(0, ""))-1)
	var b strings.Builder
	for i := range catalog.MaxCapabilities {
		b.WriteString(line(i, pad))
	}
	if b.Len() > catalog.MaxBytes || b.Len() < catalog.MaxBytes-catalog.MaxCapabilities-1 {
		tb.Fatalf("catalog of %d bytes is not at the cap", b.Len())
	}
	path = filepath.Join(tb.TempDir(), "catalog.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path, fmt.Sprintf("cap-%05d", catalog.MaxCapabilities-1)
}

func tiny(tb testing.TB) (path, id string) {
	tb.Helper()
	path = filepath.Join(tb.TempDir(), "catalog.yaml")
	if err := os.WriteFile(path, []byte("only: {description: d, safety: reversible, tools: [{name: tl, argv: [tl, check]}]}\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path, "only"
}

// TestUserCatalogClass (issue 22 §1, §3; issue 23 §2): the hook's class of a user
// catalog's capability, raised to forbidden for a forbidden argv; a catalog past the
// size cap (64 MiB, as the adversarial run used), a missing file and a broken capability
// give "unknown" (approval-required for an execution); an id the user catalog lacks is
// the shipped catalog's, and a user entry for a shipped id is never below the shipped
// class.
func TestUserCatalogClass(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, src []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.yaml", []byte("look: {description: d, safety: read-only, tools: [{name: l, argv: [l]}]}\n"+
		"wipe: {description: d, safety: read-only, tools: [{name: cmd, argv: [cmd, /c, format, \"D:\"]}]}\n"+
		"broken: {description: d}\n"+
		"test-go: {description: d, safety: read-only, tools: [{name: go, argv: [go, test]}]}\n"+
		"build-go: {description: d, safety: forbidden, tools: [{name: go, argv: [go, build]}]}\n"))
	huge := filepath.Join(dir, "huge.yaml")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("look: {description: d, safety: read-only, tools: [{name: l, argv: [l]}]}\n#")
	if err := f.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	atCapPath, last := atCap(t)
	shippedTest, ok := classify.ShippedCatalog["test-go"]
	if !ok || shippedTest.Rank() <= tools.ReadOnly.Rank() {
		t.Fatalf("the shipped test-go is %q: this test needs it above read-only", shippedTest)
	}
	for _, c := range []struct {
		path, id string
		st       userState
		want     tools.Class // the hook's class of the id
		ok       bool
	}{
		{good, "look", userHas, tools.ReadOnly, true},
		{good, "wipe", userHas, tools.Forbidden, true},
		{good, "nope", userLacks, "", false},
		{good, "broken", userUnreadable, "", false},
		{good, "test-go", userHas, shippedTest, true},         // read-only asked, the shipped class kept
		{good, "build-go", userHas, tools.Forbidden, true},    // raising is allowed
		{good, "lint-npm", userLacks, tools.Reversible, true}, // the shipped entry stands
		{huge, "look", userUnreadable, "", false},
		{huge, "test-go", userUnreadable, "", false},
		{filepath.Join(dir, "missing.yaml"), "look", userUnreadable, "", false},
		{atCapPath, last, userHas, tools.Reversible, true},
	} {
		if _, st := findUser(c.path, c.id); st != c.st {
			t.Errorf("findUser(%s, %s) = %d, want %d", filepath.Base(c.path), c.id, st, c.st)
		}
		cl := &call{specs: classify.Shipped, catalogPath: c.path}
		if got, ok := cl.catalog(c.id); got != c.want || ok != c.ok {
			t.Errorf("catalog(%s) with %s = %q %v, want %q %v", c.id, filepath.Base(c.path), got, ok, c.want, c.ok)
		}
	}
}

// BenchmarkReplacementClass is the hook's per-call work for an executing capability_run
// call under a user catalog, tiny and at the cap (the last id of
// MaxCapabilities in just under MaxBytes): its class alone ("class"), and with extra
// arguments, which are classified on their own and after the capability's argv
// ("extra_args"). Each iteration is a new call, as each hook event is a new process.
func BenchmarkReplacementClass(b *testing.B) {
	for _, c := range []struct {
		name string
		make func(testing.TB) (string, string)
	}{{"tiny", tiny}, {"at_cap", atCap}} {
		path, id := c.make(b)
		for _, in := range []struct {
			name  string
			input map[string]any
			want  tools.Class
		}{
			{"class", map[string]any{"capability": id, "execute": true}, tools.Reversible},
			{"extra_args", map[string]any{"capability": id, "execute": true, "extra_args": []any{"-v", "./x"}}, tools.ApprovalRequired},
		} {
			b.Run(c.name+"/"+in.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					cl := &call{specs: classify.Shipped, catalogPath: path}
					if got, _ := cl.decide(plug+"capability_run", in.input, nil); got != in.want {
						b.Fatalf("class %s, want %s", got, in.want)
					}
				}
			})
		}
	}
}
