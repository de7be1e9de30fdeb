// Package release owns the distribution of Windows Dev Agent (docs/release.md):
//
//   - Build assembles dist/release, a git repository whose one commit is exactly the
//     published payload: the Claude Code, Codex, Agent Plugins and Gemini CLI plugin
//     folders with wda (and wda-hook where the host runs hooks) for every target, the
//     three marketplaces with local sources, one MCP Bundle per Windows architecture
//     packed from the same wda.exe, the MCP Registry's server.json filled with their
//     hashes, and RELEASE.json naming the source commit. The commit id is a function
//     of the source commit and the Go version.
//   - Verify rebuilds a distribution from its recorded source commit and names every
//     file that differs, is missing or is extra.
//   - Index renders the main branch's three marketplace files pinning a published
//     distribution commit; Check proves that what they pin is byte for byte the
//     rebuild of an ancestor of HEAD, whenever that commit is at hand.
//
// It starts git and go only through internal/proc, builds in temporary clones (never
// in the caller's working tree) and writes nothing outside the distribution directory
// it is given and its temporary folders.
package release

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// CheckOptions say where Check looks for the pinned distribution commit.
type CheckOptions struct {
	// Release is a local distribution directory (dist/release) to use when its HEAD is
	// the pinned commit.
	Release string
	Log     io.Writer
	// Targets as in VerifyOptions (tests).
	Targets []Target
	// NoRebuild checks the index and what the pinned commit records, but does not
	// rebuild it (the repository's own test: `release check` in CI does the rebuild).
	NoRebuild bool
}

// tagRE is a published release's tag.
var tagRE = regexp.MustCompile(`^` + Branch + `/v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// pinned is what the main branch's marketplaces say is published.
type pinned struct {
	commit  string
	version string
}

// readIndex reads main's marketplace files at HEAD (as committed, not as edited) and
// checks that they are exactly what Index renders for one commit and version.
func readIndex(ctx context.Context, g *Git) (*pinned, error) {
	got := map[string][]byte{}
	var missing []string
	for _, p := range IndexPaths {
		if _, err := g.Run(ctx, "cat-file", "-e", "HEAD:"+p); err != nil {
			missing = append(missing, p)
			continue
		}
		out, err := g.Run(ctx, "show", "HEAD:"+p)
		if err != nil {
			return nil, err
		}
		got[p] = []byte(out)
	}
	if len(got) == 0 {
		return nil, nil
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s missing at HEAD while the other marketplace files exist: a release publishes all of %s",
			strings.Join(missing, " and "), strings.Join(IndexPaths, ", "))
	}
	var c struct {
		Plugins []struct {
			Source  gitSubdir `json:"source"`
			Version string    `json:"version"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(got[ClaudeMarketplacePath], &c); err != nil || len(c.Plugins) != 1 {
		return nil, fmt.Errorf("%s: want one plugin with a git-subdir source (%v)", ClaudeMarketplacePath, err)
	}
	p := &pinned{commit: c.Plugins[0].Source.SHA, version: c.Plugins[0].Version}
	want, err := Index(p.commit, Manifest{Version: p.version})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", ClaudeMarketplacePath, err)
	}
	if !bytes.Equal(got[ClaudeMarketplacePath], want[ClaudeMarketplacePath]) {
		return nil, fmt.Errorf("%s is not what `release index` renders for %s %s: regenerate it, never edit it", ClaudeMarketplacePath, p.commit, p.version)
	}
	for _, path := range IndexPaths[1:] {
		if !bytes.Equal(got[path], want[path]) {
			return nil, fmt.Errorf("%s does not pin the same distribution commit %s as %s: regenerate them all with `release index`", path, p.commit, ClaudeMarketplacePath)
		}
	}
	if !tagRE.MatchString(c.Plugins[0].Source.Ref) {
		return nil, fmt.Errorf("%s: ref %q is not a release tag", ClaudeMarketplacePath, c.Plugins[0].Source.Ref)
	}
	return p, nil
}

// Check proves the main branch's release index at HEAD: the marketplace files pin one
// distribution commit D (rendered, not edited), and, when D is at hand (opts.Release
// with HEAD D, or D in this repository after `git fetch origin tag dist/v…`), D's
// RELEASE.json names a source commit that is an ancestor of HEAD and D is byte for byte
// its rebuild. When D is not at hand it says so and passes: the index cannot be proven
// against bytes this clone does not have.
func Check(ctx context.Context, g *Git, o CheckOptions) error {
	if o.Log == nil {
		o.Log = io.Discard
	}
	p, err := readIndex(ctx, g)
	if err != nil {
		return err
	}
	if p == nil {
		fmt.Fprintf(o.Log, "release check: no release is published on this branch (none of %s); nothing to check\n", strings.Join(IndexPaths, ", "))
		return nil
	}
	fmt.Fprintf(o.Log, "release check: the index pins distribution commit %s (%s/v%s)\n", p.commit, Branch, p.version)
	dir, cleanup, err := locate(ctx, g, p.commit, o.Release)
	if err != nil {
		return err
	}
	defer cleanup()
	if dir == "" {
		fmt.Fprintf(o.Log, "release check: %s is not in this clone and %s is not it, so its bytes were not compared;\n"+
			"  fetch it (git fetch origin tag %s/v%s) or build it (go tool mage release at the tag) and run this again\n",
			p.commit[:12], o.Release, Branch, p.version)
		return nil
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return fmt.Errorf("distribution commit %s: %w", p.commit[:12], err)
	}
	if m.Version != p.version {
		return fmt.Errorf("the index says version %s, the distribution's %s says %s", p.version, ManifestFile, m.Version)
	}
	if _, err := g.Run(ctx, "merge-base", "--is-ancestor", m.SourceCommit, "HEAD"); err != nil {
		return fmt.Errorf("the distribution was built from %s, which is not an ancestor of HEAD", m.SourceCommit[:12])
	}
	if o.NoRebuild {
		fmt.Fprintf(o.Log, "release check: %s records %s %s from %s; not rebuilt\n", p.commit[:12], m.Name, m.Version, m.SourceCommit[:12])
		return nil
	}
	if _, err := Verify(ctx, dir, VerifyOptions{Source: g.Dir, Targets: o.Targets, Log: o.Log, Runner: g.Runner}); err != nil {
		return fmt.Errorf("distribution commit %s: %w", p.commit[:12], err)
	}
	fmt.Fprintf(o.Log, "release check: %s is byte for byte the rebuild of %s\n", p.commit[:12], m.SourceCommit[:12])
	return nil
}

// locate finds the distribution commit: the local distribution directory when its
// HEAD is that commit, else a temporary checkout of it from this repository's objects.
// It returns "" when neither has it.
func locate(ctx context.Context, g *Git, commit, local string) (string, func(), error) {
	none := func() {}
	if local != "" {
		if abs, err := filepath.Abs(local); err == nil {
			if _, err := os.Stat(filepath.Join(abs, ".git")); err == nil {
				head, err := g.In(abs).hermetic().Run(ctx, "rev-parse", "--verify", "HEAD^{commit}")
				if err == nil && strings.TrimSpace(head) == commit {
					return abs, none, nil
				}
			}
		}
	}
	if _, err := g.Run(ctx, "cat-file", "-e", commit+"^{commit}"); err != nil {
		return "", none, nil
	}
	tmp, err := os.MkdirTemp("", "wda-check-")
	if err != nil {
		return "", none, err
	}
	cleanup := func() { _ = os.RemoveAll(tmp) } // temporary checkout; nothing to report
	top, err := g.Run(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		cleanup()
		return "", none, err
	}
	dir := filepath.Join(tmp, "dist")
	if _, err := g.Run(ctx, "clone", "-q", "--shared", "--no-checkout", "--", strings.TrimSpace(top), dir); err != nil {
		cleanup()
		return "", none, err
	}
	if _, err := g.In(dir).hermetic().Run(ctx, "checkout", "-q", "--detach", commit); err != nil {
		cleanup()
		return "", none, errors.Join(fmt.Errorf("checking out %s", commit[:12]), err)
	}
	return dir, cleanup, nil
}
