//go:build !windows

package capabilityrun_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/internal/catalog"
	"github.com/windows-dev-agent/wda/internal/proc"
	"github.com/windows-dev-agent/wda/tools"
)

// TestShippedGitCapabilitiesRunNoConfiguredProgram (issue 22 §2): a repository whose
// own config names a program for every hook git offers status, log and diff (a file
// system monitor, an external diff and a diff driver's command, a textconv filter,
// the signature verifiers log.showSignature calls, pagers, and index hooks) runs none
// of them through any shipped git capability, planned and executed through
// capability_run with the real git. Each program appends its config key to a marker
// file, so a failure names what ran.
//
// Not covered, because no git option turns it off (docs/catalog.md, "The shipped
// capabilities"): a clean filter (filter.<driver>.clean or .process) that the
// attributes of a changed file name runs when status or diff rereads that file.
func TestShippedGitCapabilitiesRunNoConfiguredProgram(t *testing.T) {
	t.Parallel()
	gitPath, ok := proc.NewResolver(os.Getenv).Resolve("git")
	if !ok {
		t.Skip("git is not on PATH")
	}
	repo, progs := t.TempDir(), t.TempDir()
	repo, _ = filepath.EvalSymlinks(repo)
	marker := filepath.Join(progs, "ran")
	prog := func(key string) string {
		p := filepath.Join(progs, strings.NewReplacer(".", "_", "/", "_").Replace(key))
		script := "#!/bin/sh\necho '" + key + "' >> '" + marker + "'\ncat >/dev/null 2>&1\nexit 0\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	git := func(stdin string, args ...string) string {
		t.Helper()
		argv := append([]string{gitPath, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgSign=false"}, args...)
		if stdin != "" {
			// hash-object reads the object from a file; the runner's stdin is the null device.
			f := filepath.Join(t.TempDir(), "object")
			if err := os.WriteFile(f, []byte(stdin), 0o644); err != nil {
				t.Fatal(err)
			}
			argv = append(argv, f)
		}
		rc := proc.Exec{}.Run(context.Background(), proc.Request{Argv: argv, Dir: repo})
		if !rc.Succeeded {
			t.Fatalf("git %v: %s %s", args, rc.Error, rc.Stderr)
		}
		return strings.TrimSpace(rc.Stdout)
	}
	git("", "init", "-q", ".")
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "one\n")
	write(".gitattributes", "*.txt diff=probe\n")
	git("", "add", ".")
	git("", "commit", "-q", "-m", "base")
	// A commit carrying a signature, so that showing signatures would call the verifier.
	signed := git("tree "+git("", "rev-parse", "HEAD^{tree}")+"\nparent "+git("", "rev-parse", "HEAD")+
		"\nauthor t <t@example.com> 1700000000 +0000\ncommitter t <t@example.com> 1700000000 +0000\n"+
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned\n",
		"hash-object", "-t", "commit", "-w")
	git("", "update-ref", "HEAD", signed)
	hooks := filepath.Join(progs, "hooks")
	if err := os.Mkdir(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout"} {
		if err := os.Symlink(prog("hook "+h), filepath.Join(hooks, h)); err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range []string{"core.fsmonitor", "diff.external", "diff.probe.command", "diff.probe.textconv",
		"gpg.program", "gpg.ssh.program", "gpg.x509.program", "core.pager", "pager.status", "pager.log", "pager.diff"} {
		git("", "config", key, prog(key))
	}
	git("", "config", "log.showSignature", "true")
	git("", "config", "core.hooksPath", hooks)
	write("a.txt", "one\ntwo\n") // a change for status and diff to report

	shipped, err := catalog.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	// The runner's PATH has git and nothing else.
	e := env(t, filepath.Dir(gitPath), "")
	e.ProjectDir = repo
	var ids []string
	for _, id := range shipped.IDs() {
		cp, _ := shipped.Get(id)
		if slices.ContainsFunc(cp.Tools, func(tl catalog.Tool) bool { return tl.Argv[0] == "git" }) {
			ids = append(ids, id)
		}
	}
	if len(ids) < 3 {
		t.Fatalf("shipped git capabilities %v: the test is not looking at them", ids)
	}
	for _, id := range ids {
		cp, _ := shipped.Get(id)
		if cp.Safety != tools.ReadOnly {
			continue // a capability that may change things is not held to this
		}
		plan := call(t, e, tools.Args{"capability": id})
		ea, _ := plan["execute_arguments"].(map[string]any)
		if plan["status"] != "planned" || ea == nil {
			t.Fatalf("%s: plan %v", id, plan)
		}
		run := call(t, e, tools.Args(ea))
		if run["status"] != "completed" {
			t.Errorf("%s: %v", id, run)
		}
		if ran, err := os.ReadFile(marker); err == nil {
			t.Errorf("%s ran the repository's configured programs: %q", id, ran)
			os.Remove(marker)
		}
	}
}
