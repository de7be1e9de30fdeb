// Package release owns the published release index (.agents/plugins/marketplace.json)
// and the check of the two-commit release identity (docs/release.md):
//
//  1. a payload commit P holds the whole plugin tree and no index;
//  2. an index commit I, whose only parent is P, adds only the index, pinning sha = P;
//  3. development continues on top of I.
//
// Check passes when no index exists (nothing is published). It reads git through
// internal/proc, never by starting processes itself, and never writes anything.
package release

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/windows-dev-agent/wda"
	"github.com/windows-dev-agent/wda/internal/proc"
)

// IndexPath is where Codex looks for a repository's marketplace.
const IndexPath = ".agents/plugins/marketplace.json"

// PayloadPath is the Codex payload inside the repository.
const PayloadPath = "./dist/codex"

// Repository is the published git URL of the project.
const Repository = "https://github.com/windows-dev-agent/wda.git"

type source struct {
	Source string `json:"source"`
	URL    string `json:"url"`
	Path   string `json:"path"`
	SHA    string `json:"sha"`
}

type entry struct {
	Name   string `json:"name"`
	Source source `json:"source"`
	Policy struct {
		Installation   string `json:"installation"`
		Authentication string `json:"authentication"`
	} `json:"policy"`
	Category string `json:"category"`
}

type index struct {
	Name      string `json:"name"`
	Interface struct {
		DisplayName string `json:"displayName"`
	} `json:"interface"`
	Plugins []entry `json:"plugins"`
}

var shaRE = regexp.MustCompile(`^[0-9a-f]{40}$`)

// Index renders the marketplace file pinning the payload commit sha.
func Index(sha string) ([]byte, error) {
	if !shaRE.MatchString(sha) {
		return nil, fmt.Errorf("sha must be 40 lowercase hex characters, got %q", sha)
	}
	var ix index
	ix.Name = wda.ServerName
	ix.Interface.DisplayName = "Windows Dev Agent"
	e := entry{Name: wda.ServerName, Source: source{Source: "url", URL: Repository, Path: PayloadPath, SHA: sha}, Category: "Productivity"}
	e.Policy.Installation, e.Policy.Authentication = "AVAILABLE", "ON_INSTALL"
	ix.Plugins = []entry{e}
	b, err := json.MarshalIndent(ix, "", "  ")
	return append(b, '\n'), err
}

// Git runs git in a repository through the one process runner.
type Git struct {
	Dir    string
	Runner proc.Runner
	Binary string // absolute path of git
}

// NewGit resolves git from PATH.
func NewGit(dir string) (*Git, error) {
	bin, ok := proc.NewResolver(nil).Resolve("git")
	if !ok {
		return nil, fmt.Errorf("git is not installed")
	}
	abs, err := filepath.Abs(dir) // the runner takes absolute working directories only
	if err != nil {
		return nil, err
	}
	return &Git{Dir: abs, Runner: proc.Exec{}, Binary: bin}, nil
}

func (g *Git) run(ctx context.Context, args ...string) (string, error) {
	r := g.Runner.Run(ctx, proc.Request{Argv: append([]string{g.Binary}, args...), Dir: g.Dir, Timeout: time.Minute, StdoutLimit: 1 << 20})
	if !r.ExecutionStarted {
		return "", fmt.Errorf("git %s: not started: %s", strings.Join(args, " "), r.Error)
	}
	if !r.StdoutWhole() {
		return "", fmt.Errorf("git %s: output incomplete or truncated", strings.Join(args, " "))
	}
	if !r.Succeeded {
		return r.Stdout, fmt.Errorf("git %s: %s%s", strings.Join(args, " "), strings.TrimSpace(r.Stderr), r.Error)
	}
	return r.Stdout, nil
}

// Check verifies the release identity of the repository at HEAD.
func Check(ctx context.Context, g *Git) error {
	last, err := g.run(ctx, "log", "-n1", "--format=%H", "--", IndexPath)
	if err != nil {
		return err
	}
	indexCommit := strings.TrimSpace(last)
	if indexCommit == "" {
		return nil // nothing published
	}
	if _, err := g.run(ctx, "cat-file", "-e", "HEAD:"+IndexPath); err != nil {
		return fmt.Errorf("%s was published in %s and later removed; a published index must stay", IndexPath, indexCommit[:12])
	}
	raw, err := g.run(ctx, "show", indexCommit+":"+IndexPath)
	if err != nil {
		return err
	}
	var ix index
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ix); err != nil {
		return fmt.Errorf("%s at %s: %v", IndexPath, indexCommit[:12], err)
	}
	if len(ix.Plugins) != 1 || ix.Plugins[0].Source.Source != "url" {
		return fmt.Errorf("%s must list exactly one plugin with a url source", IndexPath)
	}
	pinned := ix.Plugins[0].Source.SHA
	if !shaRE.MatchString(pinned) {
		return fmt.Errorf("pinned sha %q is not 40 lowercase hex characters", pinned)
	}
	if _, err := g.run(ctx, "merge-base", "--is-ancestor", indexCommit, "HEAD"); err != nil {
		return fmt.Errorf("index commit %s is not an ancestor of HEAD", indexCommit[:12])
	}
	parents, err := g.run(ctx, "rev-list", "--parents", "-n1", indexCommit)
	if err != nil {
		return err
	}
	fields := strings.Fields(parents)
	if len(fields) != 2 {
		return fmt.Errorf("index commit %s must have exactly one parent, has %d", indexCommit[:12], len(fields)-1)
	}
	if fields[1] != pinned {
		return fmt.Errorf("index commit %s pins %s but its parent is %s", indexCommit[:12], pinned[:12], fields[1][:12])
	}
	if _, err := g.run(ctx, "cat-file", "-e", pinned+":"+IndexPath); err == nil {
		return fmt.Errorf("payload commit %s must not contain %s", pinned[:12], IndexPath)
	}
	changed, err := g.run(ctx, "diff", "--name-only", pinned, indexCommit)
	if err != nil {
		return err
	}
	if strings.TrimSpace(changed) != IndexPath {
		return fmt.Errorf("index commit must change only %s, changed: %s", IndexPath, strings.Join(strings.Fields(changed), ", "))
	}
	return samePlugin(ctx, g, pinned)
}

// samePlugin checks that the pinned payload's two manifests agree on name and version.
func samePlugin(ctx context.Context, g *Git, sha string) error {
	type manifest struct{ Name, Version string }
	var got []manifest
	for _, p := range []string{"dist/claude/.claude-plugin/plugin.json", "dist/codex/.codex-plugin/plugin.json"} {
		raw, err := g.run(ctx, "show", sha+":"+p)
		if err != nil {
			return fmt.Errorf("payload commit %s lacks %s", sha[:12], p)
		}
		var m manifest
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			return fmt.Errorf("%s at %s: %v", p, sha[:12], err)
		}
		got = append(got, m)
	}
	if got[0].Name != wda.ServerName || got[1].Name != wda.ServerName || got[0].Version != got[1].Version {
		return fmt.Errorf("payload manifests disagree: claude %s@%s, codex %s@%s", got[0].Name, got[0].Version, got[1].Name, got[1].Version)
	}
	return nil
}
