package release

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// VerifyOptions say how Verify rebuilds.
type VerifyOptions struct {
	// Source is a directory of the source repository holding the recorded commit.
	Source string
	// Targets, when set, is the exact target list the distribution must record
	// (tests); otherwise it must record every release target.
	Targets []Target
	Log     io.Writer
	Runner  proc.Runner
}

// MismatchError lists every difference between a distribution and its rebuild, one
// problem per file.
type MismatchError struct {
	Problems []string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%d problem(s): %s", len(e.Problems), strings.Join(e.Problems, "; "))
}

// ReadManifest reads and checks dir/RELEASE.json.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return m, fmt.Errorf("%s: %w (not a distribution, or an incomplete one)", ManifestFile, err)
	}
	return parseManifest(raw)
}

func parseManifest(raw []byte) (Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("%s: %v", ManifestFile, err)
	}
	switch {
	case !shaRE.MatchString(m.SourceCommit):
		return m, fmt.Errorf("%s: source_commit %q is not 40 lowercase hex characters", ManifestFile, m.SourceCommit)
	case !versionRE.MatchString(m.Version):
		return m, fmt.Errorf("%s: version %q is not a release version", ManifestFile, m.Version)
	case !strings.HasPrefix(m.Go, "go"):
		return m, fmt.Errorf("%s: go %q is not a Go toolchain name", ManifestFile, m.Go)
	}
	return m, nil
}

// Verify rebuilds the distribution in dir from the source commit its RELEASE.json
// records (in a temporary clone, with the recorded Go toolchain) and compares every
// file, its executable bit, and, when dir is a git repository, its commit id. It
// returns a *MismatchError naming each file that differs, is missing or is extra.
func Verify(ctx context.Context, dir string, o VerifyOptions) (*Result, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	want := Targets
	if o.Targets != nil {
		want = slices.DeleteFunc(slices.Clone(Targets), func(t Target) bool { return !slices.Contains(o.Targets, t) })
	}
	var names []string
	for _, t := range want {
		names = append(names, t.String())
	}
	if !slices.Equal(m.Targets, names) {
		return nil, &MismatchError{Problems: []string{fmt.Sprintf("%s: targets %v, want %v", ManifestFile, m.Targets, names)}}
	}
	tmp, err := os.MkdirTemp("", "wda-verify-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }() // the rebuild; nothing to report
	fmt.Fprintf(o.Log, "release: rebuilding %s %s from %s with %s\n", m.Name, m.Version, m.SourceCommit, m.Go)
	// GOTOOLCHAIN=<recorded version> makes the go command use (or fetch) exactly the
	// toolchain the distribution was built with.
	rebuilt, err := Build(ctx, Options{Source: o.Source, Commit: m.SourceCommit, Out: filepath.Join(tmp, "release"),
		Targets: want, Toolchain: m.Go, Log: o.Log, Runner: o.Runner})
	if err != nil {
		return nil, fmt.Errorf("rebuilding from %s: %w", m.SourceCommit, err)
	}
	problems, err := compareTrees(dir, rebuilt.Dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		g, err := NewGit(dir)
		if err != nil {
			return nil, err
		}
		if o.Runner != nil {
			g.Runner = o.Runner
		}
		head, err := g.hermetic().Run(ctx, "rev-parse", "--verify", "HEAD^{commit}")
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("commit: %v", err))
		case strings.TrimSpace(head) != rebuilt.Commit:
			problems = append(problems, fmt.Sprintf("commit: HEAD is %s, the rebuild is %s", strings.TrimSpace(head), rebuilt.Commit))
		}
	}
	if len(problems) > 0 {
		return rebuilt, &MismatchError{Problems: problems}
	}
	return rebuilt, nil
}

type entry struct {
	exec bool
	path string // absolute
}

// listTree lists the regular files under root (slash paths), skipping the top-level
// .git; anything else (a symbolic link, a device) is a problem.
func listTree(root string) (map[string]entry, []string, error) {
	files := map[string]entry{}
	var problems []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			problems = append(problems, "not a regular file: "+rel)
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files[rel] = entry{exec: fi.Mode().Perm()&0o111 != 0, path: p}
		return nil
	})
	return files, problems, err
}

// compareTrees names every file of got that differs from want, is missing or is extra.
// The executable bit is compared where the file system keeps it (not on Windows).
func compareTrees(got, want string) ([]string, error) {
	g, problems, err := listTree(got)
	if err != nil {
		return nil, err
	}
	w, _, err := listTree(want)
	if err != nil {
		return nil, err
	}
	var all []string
	for p := range g {
		all = append(all, p)
	}
	for p := range w {
		if _, ok := g[p]; !ok {
			all = append(all, p)
		}
	}
	slices.Sort(all)
	for _, p := range all {
		ge, inGot := g[p]
		we, inWant := w[p]
		switch {
		case !inGot:
			problems = append(problems, "missing: "+p)
		case !inWant:
			problems = append(problems, "unexpected file: "+p)
		default:
			same, err := sameContent(ge.path, we.path)
			if err != nil {
				return nil, err
			}
			if !same {
				problems = append(problems, "differs: "+p)
			} else if runtime.GOOS != "windows" && ge.exec != we.exec {
				problems = append(problems, fmt.Sprintf("mode differs: %s (executable %v, want %v)", p, ge.exec, we.exec))
			}
		}
	}
	return problems, nil
}

func sameContent(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	if fa.Size() != fb.Size() {
		return false, nil
	}
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

// IsMismatch reports whether err lists differences (as opposed to a failure to
// rebuild at all).
func IsMismatch(err error) bool {
	var m *MismatchError
	return errors.As(err, &m)
}
