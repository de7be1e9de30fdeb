//go:build linux

package proc

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// needSh skips a test that runs #! sh scripts where there is no /bin/sh.
func needSh(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
}

// reviewed returns the identity of path, as a plan would show it.
func reviewed(t *testing.T, path string) *Identity {
	t.Helper()
	id, err := Fingerprint(path)
	if err != nil {
		t.Fatal(err)
	}
	return &id
}

// TestRunChildSeesItsResolvedPath: whatever the runner executes to keep the identity
// (the held descriptor for a native binary), the program sees the path it was resolved
// to as argv[0], and a #! script sees it as $0, reviewed or not, so programs that look
// next to themselves (dirname "$0") find their siblings (docs/process-runner.md §1,
// §3.2).
func TestRunChildSeesItsResolvedPath(t *testing.T) {
	needSh(t)
	t.Parallel()
	exe := helperPath(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "tool")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s|%s|%s' \"$0\" \"$(dirname \"$0\")\" \"$*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	native := helperRequest(t, "self")
	cases := []struct {
		name string
		req  Request
		want string
	}{
		{"native, unreviewed", native, exe + "\n" + exe},
		{"native, reviewed", withExpected(native, reviewed(t, exe)), exe + "\n" + exe},
		{"script, unreviewed", Request{Argv: []string{script, "a", "b c"}, Dir: dir}, script + "|" + dir + "|a b c"},
		{"script, reviewed", Request{Argv: []string{script, "a", "b c"}, Dir: dir, Expected: reviewed(t, script)}, script + "|" + dir + "|a b c"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := Run(context.Background(), c.req)
			if !r.Succeeded || r.Stdout != c.want {
				t.Errorf("stdout %q, want %q (%+v)", r.Stdout, c.want, r)
			}
		})
	}
}

func withExpected(req Request, id *Identity) Request {
	req.Expected = id
	return req
}

// TestRunReviewedShim: an npm/pnpm-style shim finds the program it starts through
// dirname "$0", also when it runs under a reviewed identity.
func TestRunReviewedShim(t *testing.T) {
	needSh(t)
	t.Parallel()
	dir := t.TempDir()
	bin, lib := filepath.Join(dir, "node_modules", ".bin"), filepath.Join(dir, "node_modules", "tool", "lib")
	for _, d := range []string{bin, lib} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	shim := filepath.Join(bin, "tool")
	files := map[string]string{
		shim:                         "#!/bin/sh\nbasedir=$(dirname \"$(echo \"$0\" | sed -e 's,\\\\,/,g')\")\nexec \"$basedir/../tool/lib/cli.sh\" \"$@\"\n",
		filepath.Join(lib, "cli.sh"): "#!/bin/sh\nprintf 'cli:%s' \"$*\"\n",
	}
	for p, body := range files {
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := Run(context.Background(), Request{Argv: []string{shim, "--version"}, Dir: dir, Expected: reviewed(t, shim)})
	if want := "cli:--version"; !r.Succeeded || r.Stdout != want {
		t.Errorf("stdout %q, want %q (%+v)", r.Stdout, want, r)
	}
}

// TestRunReviewedScriptRefusals: a reviewed #! script the kernel would not start, or
// would start through a path relative to the working directory, is refused before
// anything starts.
func TestRunReviewedScriptRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		mode       os.FileMode
		want       string
	}{
		{"relative interpreter", "#!sh\necho\n", 0o755, "is a #! script whose interpreter is not an absolute path: \"sh\""},
		{"no interpreter", "#!  \t\necho\n", 0o755, "starts with #! but its first line names no interpreter"},
		{"not executable", "#!/bin/sh\necho\n", 0o644, "cannot be executed: permission denied"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			script := filepath.Join(dir, "tool")
			if err := os.WriteFile(script, []byte(c.body), c.mode); err != nil {
				t.Fatal(err)
			}
			r := Run(context.Background(), Request{Argv: []string{script}, Dir: dir, Expected: reviewed(t, script)})
			if want := "Executable " + script + " " + c.want; r.ExecutionStarted || r.Error != want {
				t.Errorf("receipt %+v, want the refusal %q", r, want)
			}
		})
	}
}

// TestReviewedScriptCheckedAtExecStop: the check a reviewed script gets once its
// interpreter has been loaded (before it reads the script) refuses a path that no
// longer names the reviewed file, and bytes that are no longer the reviewed ones.
func TestReviewedScriptCheckedAtExecStop(t *testing.T) {
	t.Parallel()
	const body = "#!/bin/sh\necho reviewed\n"
	cases := []struct {
		name   string
		change func(t *testing.T, script string)
		ok     bool
	}{
		{"unchanged", func(*testing.T, string) {}, true},
		{"replaced by a copy with the same bytes", func(t *testing.T, script string) {
			writeFile(t, script+".new", body)
			rename(t, script+".new", script)
		}, false},
		{"replaced by another script", func(t *testing.T, script string) {
			writeFile(t, script+".new", "#!/bin/sh\necho other\n")
			rename(t, script+".new", script)
		}, false},
		{"rewritten in place", func(t *testing.T, script string) {
			f, err := os.OpenFile(script, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("#!/bin/ls"), 0)
			f.Close()
		}, false},
		{"removed", func(t *testing.T, script string) { os.Remove(script) }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			script := filepath.Join(dir, "tool")
			writeFile(t, script, body)
			p, r := prepare(Request{Argv: []string{script}, Dir: dir, Expected: reviewed(t, script)})
			if r != nil {
				t.Fatalf("refused: %+v", r)
			}
			defer p.release()
			if p.path != "/bin/sh" || len(p.extra) != 0 {
				t.Fatalf("a reviewed script is started as %q with %d inherited files, want /bin/sh and none", p.path, len(p.extra))
			}
			c.change(t, script)
			r = p.verify()
			if c.ok != (r == nil) || (r != nil && (!r.IdentityMismatch || r.Error != "Executable identity changed since it was reviewed: "+script)) {
				t.Errorf("check at the exec stop = %+v, want ok %v", r, c.ok)
			}
		})
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

func rename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}
