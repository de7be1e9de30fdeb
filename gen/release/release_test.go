package release

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// linux/amd64 builds on every machine (CGO_ENABLED=0), so one target keeps the tests
// fast; the real six-target build is `go tool mage release`.
var oneTarget = []Target{{"linux", "amd64"}}

// registryTemplate is a server.json template as gen renders it, placeholders included.
const registryTemplate = `{"packages":[
{"identifier":"https://example.invalid/windows-dev-agent-0.5.0-windows-amd64.mcpb","fileSha256":"${sha256:windows-dev-agent-0.5.0-windows-amd64.mcpb}"},
{"identifier":"https://example.invalid/windows-dev-agent-0.5.0-windows-arm64.mcpb","fileSha256":"${sha256:windows-dev-agent-0.5.0-windows-arm64.mcpb}"}]}
`

// source is a throw-away source repository: a tiny module with the two commands and
// the generated manifests a release reads.
type source struct {
	t *testing.T
	g *Git
}

func newSource(t *testing.T) *source {
	t.Helper()
	g, err := NewGit(t.TempDir())
	if err != nil {
		t.Skip(err)
	}
	if _, err := newGoTool(g.Runner); err != nil {
		t.Skip(err)
	}
	s := &source{t, g.hermetic("GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_AUTHOR_DATE=1700000000 +0000",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_COMMITTER_DATE=1700000000 +0000")}
	s.git("init", "-q", "-b", "main")
	manifest := `{"name":"windows-dev-agent","version":"0.5.0"}`
	for name, content := range map[string]string{
		"go.mod":                                 "module example.com/fake\n\ngo 1.26\n",
		"cmd/wda/main.go":                        "package main\n\nfunc main() { println(\"wda\") }\n",
		"cmd/wda-hook/main.go":                   "package main\n\nfunc main() { println(\"wda-hook\") }\n",
		"dist/claude/.claude-plugin/plugin.json": manifest,
		"dist/codex/.codex-plugin/plugin.json":   manifest,
		"dist/agent-plugin/plugin.json":          manifest,
		"dist/gemini/gemini-extension.json":      manifest,
		"dist/mcpb/manifest.json":                manifest,
		"dist/mcpb/README.md":                    "mcpb\n",
		"dist/registry/server.json":              registryTemplate,
		"dist/claude/README.md":                  "claude\n",
		"dist/codex/hooks/codex-hooks.json":      "{}\n",
		"dist/policy/WindowsDevAgent.admx":       "<policyDefinitions/>\n",
		"dist/policy/en-US/WindowsDevAgent.adml": "<policyDefinitionResources/>\n",
		"LICENSE":                                "license\n",
	} {
		s.write(name, content)
	}
	s.commit("source")
	return s
}

func (s *source) git(args ...string) string {
	s.t.Helper()
	out, err := s.g.Run(context.Background(), args...)
	if err != nil {
		s.t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

func (s *source) write(name, content string) {
	s.t.Helper()
	p := filepath.Join(s.g.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *source) commit(msg string) string {
	s.git("add", "-A")
	s.git("commit", "-q", "-m", msg)
	return s.git("rev-parse", "HEAD")
}

func (s *source) build(out string) *Result {
	s.t.Helper()
	res, err := Build(context.Background(), Options{Source: s.g.Dir, RequireClean: true, Out: out, Targets: oneTarget})
	if err != nil {
		s.t.Fatal(err)
	}
	return res
}

func (s *source) verify(dir string) error {
	_, err := Verify(context.Background(), dir, VerifyOptions{Source: s.g.Dir, Targets: oneTarget})
	return err
}

// copyTree copies a distribution, .git included, keeping executable bits.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func problems(t *testing.T, err error) []string {
	t.Helper()
	var mm *MismatchError
	if !errors.As(err, &mm) {
		t.Fatalf("want a *MismatchError, got %v", err)
	}
	return mm.Problems
}

// Two builds of one commit are the same commit, file for file, and the layout is the
// documented one (docs/release.md).
func TestBuildIsReproducible(t *testing.T) {
	t.Parallel()
	s := newSource(t)
	a, b := s.build(filepath.Join(t.TempDir(), "a")), s.build(filepath.Join(t.TempDir(), "b"))
	if a.Commit != b.Commit {
		t.Errorf("two builds of one commit: %s and %s", a.Commit, b.Commit)
	}
	if p, err := compareTrees(a.Dir, b.Dir); err != nil || len(p) > 0 {
		t.Errorf("trees differ: %v %v", p, err)
	}
	files, _, err := listTree(a.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p, e := range files {
		if e.exec {
			p += " (x)"
		}
		got = append(got, p)
	}
	slices.Sort(got)
	// No Windows build, so no bundle and no registry entry.
	want := []string{
		".agents/plugins/marketplace.json", ".claude-plugin/marketplace.json", ".github/plugin/marketplace.json",
		"LICENSE", "README.md", "RELEASE.json",
		"agent-plugin/bin/linux-amd64/wda (x)", "agent-plugin/bin/linux-amd64/wda-hook (x)", "agent-plugin/bin/wda (x)",
		"agent-plugin/bin/wda-hook (x)", "agent-plugin/plugin.json",
		"claude/.claude-plugin/plugin.json", "claude/README.md",
		"claude/bin/linux-amd64/wda (x)", "claude/bin/linux-amd64/wda-hook (x)", "claude/bin/wda (x)", "claude/bin/wda-hook (x)",
		"codex/.codex-plugin/plugin.json",
		"codex/bin/linux-amd64/wda (x)", "codex/bin/linux-amd64/wda-hook (x)", "codex/bin/wda (x)", "codex/bin/wda-hook (x)",
		"codex/hooks/codex-hooks.json",
		"gemini/bin/linux-amd64/wda (x)", "gemini/bin/wda (x)", "gemini/gemini-extension.json",
		"policy/WindowsDevAgent.admx", "policy/en-US/WindowsDevAgent.adml",
	}
	if runtimeKeepsExecBits() {
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("layout (-want +got):\n%s", d)
		}
	}
	m, err := ReadManifest(a.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.SourceCommit != s.git("rev-parse", "HEAD") || m.Version != "0.5.0" || !slices.Equal(m.Targets, []string{"linux/amd64"}) {
		t.Errorf("RELEASE.json = %+v", m)
	}
	// The distribution repository is clean and its branch is the one commit.
	d := s.g.In(a.Dir).hermetic()
	if st, err := d.Run(context.Background(), "status", "--porcelain"); err != nil || st != "" {
		t.Errorf("distribution working tree not clean: %q %v", st, err)
	}
	if n, _ := d.Run(context.Background(), "rev-list", "--count", Branch); strings.TrimSpace(n) != "1" {
		t.Errorf("branch %s has %s commits, want 1", Branch, n)
	}
}

func runtimeKeepsExecBits() bool { return filepath.Separator == '/' }

func TestVerify(t *testing.T) {
	t.Parallel()
	s := newSource(t)
	fresh := s.build(filepath.Join(t.TempDir(), "release"))
	if err := s.verify(fresh.Dir); err != nil {
		t.Fatalf("a fresh release: %v", err)
	}
	cases := []struct {
		name   string
		change func(dir string) error
		want   []string
	}{
		{"tampered binary", func(dir string) error {
			p := filepath.Join(dir, "claude", "bin", "linux-amd64", "wda-hook")
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b[len(b)/2] ^= 0xff
			return os.WriteFile(p, b, 0o755)
		}, []string{"differs: claude/bin/linux-amd64/wda-hook"}},
		{"tampered manifest", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "codex", ".codex-plugin", "plugin.json"), []byte(`{"name":"x"}`), 0o644)
		}, []string{"differs: codex/.codex-plugin/plugin.json"}},
		{"missing file", func(dir string) error {
			return os.Remove(filepath.Join(dir, "codex", "bin", "wda-hook"))
		}, []string{"missing: codex/bin/wda-hook"}},
		{"extra file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "claude", "bin", "wda.sh"), []byte("x"), 0o644)
		}, []string{"unexpected file: claude/bin/wda.sh"}},
		{"lost executable bit", func(dir string) error {
			if !runtimeKeepsExecBits() {
				return errSkip
			}
			return os.Chmod(filepath.Join(dir, "claude", "bin", "wda"), 0o644)
		}, []string{"mode differs: claude/bin/wda (executable false, want true)"}},
		{"another commit", func(dir string) error {
			g := s.g.In(dir).hermetic("GIT_AUTHOR_NAME=x", "GIT_AUTHOR_EMAIL=x@x", "GIT_COMMITTER_NAME=x", "GIT_COMMITTER_EMAIL=x@x")
			_, err := g.Run(context.Background(), "commit", "-q", "--amend", "-m", "edited")
			return err
		}, []string{"commit: HEAD is "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "copy")
			copyTree(t, fresh.Dir, dir)
			if err := c.change(dir); errors.Is(err, errSkip) {
				t.Skip("the file system keeps no executable bit")
			} else if err != nil {
				t.Fatal(err)
			}
			got := problems(t, s.verify(dir))
			if len(got) != len(c.want) {
				t.Fatalf("problems %q, want %q", got, c.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.want[i]) {
					t.Errorf("problem %q, want it to start with %q", got[i], c.want[i])
				}
			}
		})
	}
	t.Run("no RELEASE.json", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "copy")
		copyTree(t, fresh.Dir, dir)
		if err := os.Remove(filepath.Join(dir, ManifestFile)); err != nil {
			t.Fatal(err)
		}
		if err := s.verify(dir); err == nil || !strings.Contains(err.Error(), ManifestFile) {
			t.Fatalf("err = %v, want it to name %s", err, ManifestFile)
		}
	})
	t.Run("fewer targets than a release", func(t *testing.T) {
		_, err := Verify(context.Background(), fresh.Dir, VerifyOptions{Source: s.g.Dir})
		if got := problems(t, err); len(got) != 1 || !strings.Contains(got[0], "targets") {
			t.Fatalf("problems %q", got)
		}
	})
}

var errSkip = errors.New("skip")

var windowsTargets = []Target{{"windows", "amd64"}, {"windows", "arm64"}}

// A build with both Windows targets packs one bundle per architecture from the built
// wda.exe, fills the registry entry with their hashes, and verifies (docs/release.md,
// "MCPB and the MCP Registry").
func TestBuildPacksTheBundles(t *testing.T) {
	t.Parallel()
	s := newSource(t)
	res, err := Build(context.Background(), Options{Source: s.g.Dir, RequireClean: true, Out: filepath.Join(t.TempDir(), "release"), Targets: windowsTargets})
	if err != nil {
		t.Fatal(err)
	}
	read := func(rel string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(res.Dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var registry struct {
		Packages []struct{ FileSha256 string }
	}
	if err := json.Unmarshal(read("registry/server.json"), &registry); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct{ arch, exe string }{{"amd64", "agent-plugin/bin/wda.exe"}, {"arm64", "agent-plugin/bin/windows-arm64/wda.exe"}} {
		name := "mcpb/windows-dev-agent-0.5.0-windows-" + c.arch + ".mcpb"
		b := read(name)
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var entries []string
		for _, f := range zr.File {
			entries = append(entries, f.Name)
			if f.Method != zip.Store || f.Flags&0x8 != 0 {
				t.Errorf("%s: %s is method %d, flags %#x; want stored, sizes in the local header", name, f.Name, f.Method, f.Flags)
			}
			// The source commit's date (newSource commits at 1700000000, an even second).
			if want := time.Unix(1700000000, 0).UTC(); !f.Modified.Equal(want) || len(f.Extra) != 0 {
				t.Errorf("%s: %s modified %v with extra %x, want %v and none", name, f.Name, f.Modified, f.Extra, want)
			}
			if f.Name == "bin/wda.exe" {
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(rc)
				rc.Close()
				if err != nil || !bytes.Equal(got, read(c.exe)) {
					t.Errorf("%s: bin/wda.exe is not %s (%v)", name, c.exe, err)
				}
			}
		}
		if d := cmp.Diff([]string{"README.md", "bin/wda.exe", "manifest.json"}, entries); d != "" {
			t.Errorf("%s entries (-want +got):\n%s", name, d)
		}
		sum := sha256.Sum256(b)
		if got := registry.Packages[i].FileSha256; got != hex.EncodeToString(sum[:]) {
			t.Errorf("registry package %d: fileSha256 %s, want the sha256 of %s", i, got, name)
		}
	}
	var copilot struct {
		Plugins []struct{ Source string }
	}
	if err := json.Unmarshal(read(CopilotMarketplacePath), &copilot); err != nil || len(copilot.Plugins) != 1 || copilot.Plugins[0].Source != "./agent-plugin" {
		t.Errorf("the Copilot marketplace does not name ./agent-plugin: %+v %v", copilot, err)
	}
	if _, err := Verify(context.Background(), res.Dir, VerifyOptions{Source: s.g.Dir, Targets: windowsTargets}); err != nil {
		t.Fatalf("verify: %v", err)
	}

	t.Run("a template naming a bundle the release does not pack", func(t *testing.T) {
		s2 := newSource(t)
		s2.write("dist/registry/server.json", strings.ReplaceAll(registryTemplate, "windows-arm64", "windows-x86"))
		s2.commit("odd template")
		_, err := Build(context.Background(), Options{Source: s2.g.Dir, Out: filepath.Join(t.TempDir(), "release"), Targets: windowsTargets})
		if err == nil || !strings.Contains(err.Error(), "windows-x86.mcpb, which the release does not pack") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("manifests of another version", func(t *testing.T) {
		s2 := newSource(t)
		s2.write("dist/gemini/gemini-extension.json", `{"name":"windows-dev-agent","version":"0.4.0"}`)
		s2.commit("stale gemini manifest")
		_, err := Build(context.Background(), Options{Source: s2.g.Dir, Out: filepath.Join(t.TempDir(), "release"), Targets: oneTarget})
		if err == nil || !strings.Contains(err.Error(), "disagree") {
			t.Fatalf("err = %v", err)
		}
	})
}

// A dirty source tree is refused before anything is written.
func TestBuildRefusesDirtyTree(t *testing.T) {
	t.Parallel()
	for _, dirty := range []func(s *source){
		func(s *source) { s.write("cmd/wda/main.go", "package main\n\nfunc main() {}\n") },
		func(s *source) { s.write("untracked.txt", "x") },
	} {
		s := newSource(t)
		dirty(s)
		out := filepath.Join(t.TempDir(), "dist", "release")
		_, err := Build(context.Background(), Options{Source: s.g.Dir, RequireClean: true, Out: out, Targets: oneTarget})
		if !errors.Is(err, ErrDirty) {
			t.Fatalf("err = %v, want ErrDirty", err)
		}
		if _, err := os.Stat(filepath.Dir(out)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("a refused build created %s: %v", filepath.Dir(out), err)
		}
	}
}

// Build replaces an earlier distribution but never a folder that is not one.
func TestBuildReplacesOnlyADistribution(t *testing.T) {
	t.Parallel()
	s := newSource(t)
	out := filepath.Join(t.TempDir(), "release")
	first := s.build(out)
	if err := os.WriteFile(filepath.Join(out, "leftover"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if second := s.build(out); second.Commit != first.Commit {
		t.Fatalf("rebuild gave %s, want %s", second.Commit, first.Commit)
	}
	if _, err := os.Stat(filepath.Join(out, "leftover")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the earlier distribution's files survived a rebuild")
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "mine.txt"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Build(context.Background(), Options{Source: s.g.Dir, Out: other, Targets: oneTarget})
	if err == nil || !strings.Contains(err.Error(), "not a distribution") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "mine.txt")); string(b) != "keep" {
		t.Fatal("a folder that is not a distribution was changed")
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	s := newSource(t)
	rel := s.build(filepath.Join(t.TempDir(), "release"))
	m, err := ReadManifest(rel.Dir)
	if err != nil {
		t.Fatal(err)
	}
	index, err := Index(rel.Commit, m)
	if err != nil {
		t.Fatal(err)
	}
	claude, codex, copilot := index[ClaudeMarketplacePath], index[CodexMarketplacePath], index[CopilotMarketplacePath]
	writeIndex := func(s *source, files map[string][]byte) {
		for p, b := range files {
			s.write(p, string(b))
		}
	}
	check := func(local string) (string, error) {
		var log bytes.Buffer
		err := Check(context.Background(), s.g, CheckOptions{Release: local, Log: &log, Targets: oneTarget})
		return log.String(), err
	}
	if log, err := check(""); err != nil || !strings.Contains(log, "no release is published") {
		t.Fatalf("before publication: %v\n%s", err, log)
	}
	writeIndex(s, index)
	s.commit("index")
	if log, err := check(rel.Dir); err != nil || !strings.Contains(log, "byte for byte the rebuild") {
		t.Fatalf("with the local distribution: %v\n%s", err, log)
	}
	if log, err := check(""); err != nil || !strings.Contains(log, "not in this clone") {
		t.Fatalf("without the distribution commit: %v\n%s", err, log)
	}
	// Once the commit is fetched (as CI's full clone fetches tags), it is compared.
	s.git("fetch", "-q", rel.Dir, "refs/tags/"+m.Tag()+":refs/tags/"+m.Tag())
	if log, err := check(""); err != nil || !strings.Contains(log, "byte for byte the rebuild") {
		t.Fatalf("with the fetched tag: %v\n%s", err, log)
	}

	t.Run("a tampered published commit", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad")
		copyTree(t, rel.Dir, bad)
		p := filepath.Join(bad, "codex", "bin", "linux-amd64", "wda")
		b, _ := os.ReadFile(p)
		b[100] ^= 1
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := check(bad); err == nil || !strings.Contains(err.Error(), "differs: codex/bin/linux-amd64/wda") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("hand-edited index", func(t *testing.T) {
		s2 := newSource(t)
		writeIndex(s2, map[string][]byte{ClaudeMarketplacePath: []byte(strings.Replace(string(claude), "Windows Dev Agent for", "Edited", 1)),
			CodexMarketplacePath: codex, CopilotMarketplacePath: copilot})
		s2.commit("edited index")
		err := Check(context.Background(), s2.g, CheckOptions{})
		if err == nil || !strings.Contains(err.Error(), "never edit it") {
			t.Fatalf("err = %v", err)
		}
	})
	for _, c := range []struct {
		name    string
		present []string
		missing string
	}{
		{"only the Codex marketplace", []string{CodexMarketplacePath}, ClaudeMarketplacePath},
		{"no Copilot marketplace", []string{ClaudeMarketplacePath, CodexMarketplacePath}, CopilotMarketplacePath},
	} {
		t.Run(c.name, func(t *testing.T) {
			s2 := newSource(t)
			for _, p := range c.present {
				s2.write(p, string(index[p]))
			}
			s2.commit("part of an index")
			err := Check(context.Background(), s2.g, CheckOptions{})
			if err == nil || !strings.Contains(err.Error(), c.missing) || !strings.Contains(err.Error(), "missing at HEAD") {
				t.Fatalf("err = %v", err)
			}
		})
	}
	other, err := Index(strings.Repeat("a", 40), m)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{CodexMarketplacePath, CopilotMarketplacePath} {
		t.Run("indexes pinning different commits: "+p, func(t *testing.T) {
			s2 := newSource(t)
			mixed := map[string][]byte{ClaudeMarketplacePath: claude, CodexMarketplacePath: codex, CopilotMarketplacePath: copilot}
			mixed[p] = other[p]
			writeIndex(s2, mixed)
			s2.commit("mismatched index")
			if err := Check(context.Background(), s2.g, CheckOptions{}); err == nil || !strings.Contains(err.Error(), p+" does not pin the same distribution commit") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestIndexRejectsBadInput(t *testing.T) {
	t.Parallel()
	for _, sha := range []string{"", "abc", strings.Repeat("A", 40), strings.Repeat("g", 40)} {
		if _, err := Index(sha, Manifest{Version: "0.5.0"}); err == nil {
			t.Errorf("Index(%q) accepted", sha)
		}
	}
	if _, err := Index(strings.Repeat("a", 40), Manifest{Version: "latest"}); err == nil {
		t.Error("Index accepted version latest")
	}
}

// The repository this test runs in must satisfy its own release index (the rebuild is
// `release check`'s job in CI, not every test run's).
func TestThisRepository(t *testing.T) {
	g, err := NewGit(filepath.Join("..", ".."))
	if err != nil {
		t.Skip(err)
	}
	if _, err := g.Run(context.Background(), "rev-parse", "--git-dir"); err != nil {
		t.Skip("not a git checkout")
	}
	if err := Check(context.Background(), g, CheckOptions{Release: filepath.Join("..", "..", "dist", "release"), NoRebuild: true}); err != nil {
		t.Fatal(err)
	}
}

// The real module's binaries rebuild byte for byte (one target; -short skips it).
func TestThisRepositoryRebuildsByteForByte(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wda twice")
	}
	g, err := NewGit(filepath.Join("..", ".."))
	if err != nil {
		t.Skip(err)
	}
	if _, err := g.Run(context.Background(), "rev-parse", "--verify", "HEAD"); err != nil {
		t.Skip("not a git checkout")
	}
	res, err := Build(context.Background(), Options{Source: g.Dir, Out: filepath.Join(t.TempDir(), "release"), Targets: oneTarget})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(context.Background(), res.Dir, VerifyOptions{Source: g.Dir, Targets: oneTarget}); err != nil {
		t.Fatal(err)
	}
}
