package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	wda "github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/host/classify"
	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/tools"
)

// many is a catalog of n capabilities, each line the same length.
func many(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "cap-%07d: {description: d, safety: reversible, tools: [{name: tl, argv: [tl, check]}]}\n", i)
	}
	return []byte(b.String())
}

// padded is a valid catalog of exactly size bytes: one capability and a comment.
func padded(size int) []byte {
	src := []byte("a: {description: d, tools: [{name: tl, argv: [tl]}]}\n#")
	return append(src, strings.Repeat("x", size-len(src))...)
}

// TestLimits (issue 22 §3): a catalog is at most catalog.MaxBytes and
// catalog.MaxCapabilities; past either, Load, Find and ReadFile refuse it with an error
// naming the limit (and ReadFile the file), and ReadFile reads no more than one byte
// past the cap of a file however large.
func TestLimits(t *testing.T) {
	t.Parallel()
	if _, err := catalog.Load(padded(catalog.MaxBytes)); err != nil {
		t.Fatalf("a catalog of exactly the cap: %v", err)
	}
	if _, err := catalog.Load(many(catalog.MaxCapabilities)); err != nil {
		t.Fatalf("a catalog of exactly the most capabilities: %v", err)
	}
	for name, c := range map[string]struct {
		src  []byte
		want []string
	}{
		"one byte past the cap":   {padded(catalog.MaxBytes + 1), []string{"larger than 1048576 bytes (1 MiB)"}},
		"one capability too many": {many(catalog.MaxCapabilities + 1), []string{"has 1025 capabilities", "more than the 1024"}},
	} {
		if _, err := catalog.Load(c.src); err == nil || !containsAll(err.Error(), c.want) {
			t.Errorf("%s: Load said %v, want %q", name, err, c.want)
		}
		if _, _, err := catalog.Find(c.src, "a"); err == nil || !containsAll(err.Error(), c.want) {
			t.Errorf("%s: Find said %v, want %q", name, err, c.want)
		}
	}

	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.yaml")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// 64 MiB, sparse: what the adversarial run used. ReadFile must not read it all.
	if err := f.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := catalog.ReadFile(huge); err == nil || !containsAll(err.Error(), []string{huge, "1048576 bytes"}) {
		t.Errorf("ReadFile of 64 MiB: %v", err)
	}
	exact := filepath.Join(dir, "exact.yaml")
	if err := os.WriteFile(exact, padded(catalog.MaxBytes), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := catalog.ReadFile(exact); err != nil || len(src) != catalog.MaxBytes {
		t.Errorf("ReadFile of exactly the cap: %d bytes, %v", len(src), err)
	}
	if _, err := catalog.ReadFile(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFile of a directory: %v", err)
	}
	if _, err := catalog.ReadFile(filepath.Join(dir, "missing")); err == nil {
		t.Error("ReadFile of a missing file succeeded")
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// TestForbiddenArgvIsForbidden (issue 22 §1): a replacement catalog that calls a
// forbidden argv read-only does not lower its class: Load and Find give forbidden. A
// declaration stands for everything else, even what the shell classifier does not know.
func TestForbiddenArgvIsForbidden(t *testing.T) {
	t.Parallel()
	src := []byte(`
wipe: {description: d, safety: read-only, tools: [{name: cmd, argv: [cmd, /c, format, "D:"]}]}
second: {description: d, safety: reversible, tools: [{name: ok, argv: [ok]}, {name: pwsh, argv: [pwsh, -Command, "Format-Volume -DriveLetter D"]}]}
purge: {description: d, safety: read-only, tools: [{name: wsl, argv: [wsl, rm, -rf, /mnt/c/Windows/System32]}]}
quiet: {description: d, safety: read-only, tools: [{name: tool, argv: [some-tool, --list]}]}
said: {description: d, safety: forbidden, tools: [{name: tool, argv: [some-tool]}]}
`)
	want := map[string]tools.Class{"wipe": tools.Forbidden, "second": tools.Forbidden, "purge": tools.Forbidden,
		"quiet": tools.ReadOnly, "said": tools.Forbidden}
	c, err := catalog.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	for id, w := range want {
		cp, _ := c.Get(id)
		found, ok, err := catalog.Find(src, id)
		if cp.Safety != w || err != nil || !ok || found.Safety != w {
			t.Errorf("%s: Load %s, Find %s %v %v; want %s", id, cp.Safety, found.Safety, ok, err, w)
		}
	}
}

// shellUnknown are the shipped capabilities whose argv the shell classifier does not
// know well enough to call read-only or reversible (it says approval-required, its
// answer for what it does not understand): their reviewed class stands
// (docs/catalog.md, "Safety classes"). Every other shipped capability's class is at
// least what the classifier gives its argv, and none is forbidden.
var shellUnknown = map[string]bool{
	"inspect-git": true, "log-git": true, "diff-git": true, // git with global options first
	"build-go": true, "vet-go": true, "build-msbuild": true, "build-cargo": true,
	"test-npm": true, "lint-npm": true, "build-npm": true, "configure-cmake": true, "build-cmake": true,
	// issue 23 §2: tools the classifier has no form for.
	"check-cargo": true, "clippy-cargo": true, "formatting-cargo": true, "formatting-dotnet": true, "formatting-go": true,
	"formatting-prettier": true, "formatting-python": true, "restore-cargo": true, "restore-dotnet": true, "test-cmake": true,
}

func TestShippedClassesCoverTheirArgv(t *testing.T) {
	t.Parallel()
	c, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	below := map[string]bool{}
	for _, id := range c.IDs() {
		cp, _ := c.Get(id)
		for _, tl := range cp.Tools {
			got, why := classify.Argv(tl.Argv)
			if got == tools.Forbidden {
				t.Errorf("%s: the shell classifier forbids %q: %s", id, tl.Argv, why)
			}
			if got.Rank() > cp.Safety.Rank() {
				below[id] = true
				if got != tools.ApprovalRequired {
					t.Errorf("%s is %s, below the shell classifier's %s for %q (%s)", id, cp.Safety, got, tl.Argv, why)
				}
			}
		}
	}
	if diff := cmp.Diff(shellUnknown, below); diff != "" {
		t.Errorf("shipped capabilities whose class is below the shell classifier's (-documented +now):\n%s", diff)
	}
}

// TestFindMatchesLoad: Find gives what Load's Get gives, for every shipped id and for
// an id the catalog lacks.
func TestFindMatchesLoad(t *testing.T) {
	t.Parallel()
	c, err := catalog.Load(wda.CapabilitiesYAML)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range append(c.IDs(), "no-such", "") {
		want, wantOK := c.Get(id)
		got, ok, err := catalog.Find(wda.CapabilitiesYAML, id)
		if err != nil || ok != wantOK {
			t.Fatalf("Find(%q) = %v, %v", id, ok, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Find(%q) (-Load +Find):\n%s", id, diff)
		}
	}
	// The ids are checked as Load checks them, the other capabilities are not decoded.
	if _, _, err := catalog.Find([]byte("1: {description: d, tools: [{name: t, argv: [t]}]}\na: {description: d, tools: [{name: t, argv: [t]}]}"), "a"); err == nil {
		t.Error("Find accepted a number as an id")
	}
	if cp, ok, err := catalog.Find([]byte("b: {description: d}\na: {description: d, safety: read-only, tools: [{name: t, argv: [t]}]}"), "a"); err != nil || !ok || cp.Safety != tools.ReadOnly {
		t.Errorf("Find of a good capability beside a broken one: %v %v %v", cp, ok, err)
	}
}
