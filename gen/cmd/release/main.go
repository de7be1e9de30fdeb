// Command release builds, verifies and indexes the distribution (docs/release.md).
//
//	go run ./gen/cmd/release build [-out dist/release] [-target os/arch]…
//	    assemble the distribution of HEAD; refuses a working tree with changes
//	    (`go tool mage release` runs this)
//	go run ./gen/cmd/release verify DIR
//	    rebuild DIR from the source commit its RELEASE.json records and compare every
//	    file; names each file that differs, is missing or is extra, and exits 1
//	go run ./gen/cmd/release index DIR
//	    write .claude-plugin/marketplace.json, .agents/plugins/marketplace.json and
//	    .github/plugin/marketplace.json pinning the distribution commit of DIR (the
//	    release workflow commits them)
//	go run ./gen/cmd/release check [-release dist/release]
//	    prove that the committed index pins a distribution that is byte for byte the
//	    rebuild of an ancestor of HEAD, when that commit is at hand; passes with a
//	    message when nothing is published or the commit is not in this clone
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/windows-dev-agent/wda/gen/release"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type targetsFlag []release.Target

func (t *targetsFlag) String() string { return fmt.Sprint(*t) }
func (t *targetsFlag) Set(s string) error {
	v, err := release.ParseTarget(s)
	if err == nil {
		*t = append(*t, v)
	}
	return err
}

const usage = "usage: release build [-out DIR] [-target os/arch]… | verify DIR | index DIR | check [-release DIR]"

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("release "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", filepath.Join("dist", "release"), "distribution directory (build)")
	local := fs.String("release", filepath.Join("dist", "release"), "local distribution to compare (check)")
	var targets targetsFlag
	fs.Var(&targets, "target", "build only this target (repeatable; for tests and trials, never for a release)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	err := func() error {
		switch {
		case args[0] == "build" && fs.NArg() == 0:
			res, err := release.Build(ctx, release.Options{Source: ".", RequireClean: true, Out: *out, Targets: targets, Log: stdout})
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "release: %s holds %d files; distribution commit %s\n", *out, res.Files, res.Commit)
			return nil
		case args[0] == "verify" && fs.NArg() == 1:
			res, err := release.Verify(ctx, fs.Arg(0), release.VerifyOptions{Source: ".", Log: stdout})
			var mm *release.MismatchError
			if errors.As(err, &mm) {
				for _, p := range mm.Problems {
					fmt.Fprintf(stderr, "release verify: %s\n", p)
				}
				return fmt.Errorf("%s is not the rebuild of its source commit (%d problem(s))", fs.Arg(0), len(mm.Problems))
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "release verify: all %d files of %s match the rebuild of %s (commit %s)\n",
				res.Files, fs.Arg(0), res.Manifest.SourceCommit, res.Commit)
			return nil
		case args[0] == "index" && fs.NArg() == 1:
			return writeIndex(ctx, fs.Arg(0), stdout)
		case args[0] == "check" && fs.NArg() == 0:
			g, err := release.NewGit(".")
			if err != nil {
				return err
			}
			if err := release.Check(ctx, g, release.CheckOptions{Release: *local, Log: stdout}); err != nil {
				return err
			}
			fmt.Fprintln(stdout, "release check: ok")
			return nil
		}
		fmt.Fprintln(stderr, usage)
		return errUsage
	}()
	switch {
	case errors.Is(err, errUsage):
		return 2
	case err != nil:
		fmt.Fprintln(stderr, "release:", err)
		return 1
	}
	return 0
}

var errUsage = errors.New("usage")

// writeIndex renders main's two marketplace files for the distribution in dir.
func writeIndex(ctx context.Context, dir string, stdout io.Writer) error {
	m, err := release.ReadManifest(dir)
	if err != nil {
		return err
	}
	g, err := release.NewGit(dir)
	if err != nil {
		return err
	}
	head, err := g.Run(ctx, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return err
	}
	commit := head[:len(head)-1]
	files, err := release.Index(commit, m)
	if err != nil {
		return err
	}
	for _, p := range release.IndexPaths {
		if err := writeAtomic(filepath.FromSlash(p), files[p]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "release index: %s pins %s (%s)\n", p, commit, m.Tag())
	}
	return nil
}

func writeAtomic(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}
