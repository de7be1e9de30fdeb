package hostcheck

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda/gen/release"
)

// releaseGroup settles which distribution the checks install: the one given, or
// dist/release when it was built from HEAD, or a fresh build of HEAD (which refuses a
// working tree with changes: commit first, or give -release).
func (e *Env) releaseGroup() Group {
	return Group{Name: "release", Checks: []Check{
		{Name: "dist/release for this checkout", Run: e.ensureRelease},
		{Name: "the distribution is one clean commit tagged " + release.Branch + "/v<version>", Run: e.releaseIsCommitted},
	}}
}

func (e *Env) ensureRelease(ctx context.Context) error {
	if e.cfg.Release != "" {
		dir, err := filepath.Abs(e.cfg.Release)
		if err != nil {
			return err
		}
		m, err := release.ReadManifest(dir)
		if err != nil {
			return err
		}
		e.release, e.manifest = dir, m
		fmt.Fprintf(e.cfg.Out, "     using %s (%s %s from %s)\n", dir, m.Name, m.Version, m.SourceCommit[:12])
		return nil
	}
	g, err := release.NewGit(e.cfg.Module)
	if err != nil {
		return err
	}
	g.Runner = e.runner
	head, err := g.Run(ctx, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return err
	}
	head = strings.TrimSpace(head)
	dir := filepath.Join(e.cfg.Module, "dist", "release")
	if m, err := release.ReadManifest(dir); err == nil && m.SourceCommit == head && len(m.Targets) == len(release.Targets) {
		e.release, e.manifest = dir, m
		fmt.Fprintf(e.cfg.Out, "     using %s, built from HEAD %s\n", dir, head[:12])
		return nil
	}
	fmt.Fprintf(e.cfg.Out, "     building %s for HEAD %s (go tool mage release)\n", dir, head[:12])
	res, err := release.Build(ctx, release.Options{Source: e.cfg.Module, RequireClean: true, Out: dir, Log: indent{e.cfg.Out}, Runner: e.runner})
	if err != nil {
		return err
	}
	e.release, e.manifest = res.Dir, res.Manifest
	return nil
}

// indent prefixes the build's progress lines so they read as part of one check.
type indent struct {
	w interface{ Write([]byte) (int, error) }
}

func (i indent) Write(p []byte) (int, error) {
	lines := strings.SplitAfter(string(p), "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString("     " + l)
		}
	}
	if _, err := i.w.Write([]byte(b.String())); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (e *Env) releaseIsCommitted(ctx context.Context) error {
	g, err := release.NewGit(e.release)
	if err != nil {
		return err
	}
	g.Runner = e.runner
	st, err := g.Run(ctx, "status", "--porcelain")
	if err != nil {
		return err
	}
	if st != "" {
		return fmt.Errorf("the distribution's working tree differs from its commit: %s", tail(st))
	}
	head, err := g.Run(ctx, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	tag, err := g.Run(ctx, "rev-parse", e.manifest.Tag()+"^{commit}")
	if err != nil || tag != head {
		return fmt.Errorf("tag %s does not name HEAD %s (%v)", e.manifest.Tag(), strings.TrimSpace(head), err)
	}
	if n, err := g.Run(ctx, "rev-list", "--count", "HEAD"); err != nil || strings.TrimSpace(n) != "1" {
		return fmt.Errorf("the distribution branch has %s commits, want 1 (%v)", strings.TrimSpace(n), err)
	}
	return nil
}

// treeDigest is every regular file under root (slash path → sha256 and executable
// bit), skipping .git.
func treeDigest(dir string) (map[string]string, error) {
	out := map[string]string{}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fsys := root.FS()
	err = fs.WalkDir(fsys, ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			out[rel] = "not a regular file"
			return nil
		}
		b, err := fs.ReadFile(fsys, rel)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		mode := ""
		if fi.Mode().Perm()&0o111 != 0 {
			mode = " x"
		}
		out[rel] = hex.EncodeToString(sum[:]) + mode
		return nil
	})
	return out, err
}

// sameTree names the first differences between the folder a host installed and the
// folder it was installed from; execBits says whether executable bits count.
func sameTree(installed, source string, execBits bool) error {
	got, err := treeDigest(installed)
	if err != nil {
		return err
	}
	want, err := treeDigest(source)
	if err != nil {
		return err
	}
	norm := func(s string) string {
		if !execBits {
			return strings.TrimSuffix(s, " x")
		}
		return s
	}
	var problems []string
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			problems = append(problems, "missing "+p)
		case norm(g) != norm(w):
			problems = append(problems, "differs "+p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			problems = append(problems, "extra "+p)
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		if len(problems) > 8 {
			problems = append(problems[:8], "…")
		}
		return fmt.Errorf("%s is not %s: %s", installed, source, strings.Join(problems, ", "))
	}
	return nil
}

// sameFile reports whether two files hold the same bytes.
func sameFile(a, b string) (bool, error) {
	da, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	db, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(da, db), nil
}
