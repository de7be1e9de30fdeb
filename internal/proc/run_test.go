package proc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRunEchoesArgvLiterally(t *testing.T) {
	args := []string{"plain", "two words", "", `back\slash\`, `"quoted"`, `& | % ^ ! ; $HOME * ?`, `a\"b`, "ünï ✓"}
	req := helperRequest(t, "args", args...)
	r := Run(context.Background(), req)
	if !r.Succeeded || !r.StdoutWhole() {
		t.Fatalf("run failed: %+v", r)
	}
	var got []string
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil {
		t.Fatalf("stdout %q: %v", r.Stdout, err)
	}
	if d := cmp.Diff(args, got); d != "" {
		t.Errorf("argv seen by the child (-want +got):\n%s", d)
	}
	if d := cmp.Diff(req.Argv, r.Argv); d != "" {
		t.Errorf("receipt argv (-want +got):\n%s", d)
	}
}

func TestRunOutputTails(t *testing.T) {
	tests := []struct {
		name                 string
		outN, errN           string
		outLimit, errLimit   int
		wantOut, wantErr     int
		wantOutTr, wantErrTr bool
	}{
		{"defaults, under", "10", "20", 0, 0, 10, 20, false, false},
		{"default stdout exact fit", "8000", "4000", 0, 0, 8000, 4000, false, false},
		{"default caps", "20000", "9000", 0, 0, DefaultStdoutLimit, DefaultStderrLimit, true, true},
		{"custom limits, large output drains fully", "3000000", "500000", 1 << 20, 64 << 10, 1 << 20, 64 << 10, true, true},
		{"only stderr truncated", "5", "11", 10, 10, 5, 10, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := helperRequest(t, "out", tc.outN, tc.errN)
			req.StdoutLimit, req.StderrLimit = tc.outLimit, tc.errLimit
			r := Run(context.Background(), req)
			got := []any{r.Succeeded, r.OutputCaptureComplete, r.OutputCaptureSettled, len(r.Stdout), len(r.Stderr), r.StdoutTruncated, r.StderrTruncated}
			want := []any{true, true, true, tc.wantOut, tc.wantErr, tc.wantOutTr, tc.wantErrTr}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("[succeeded complete settled len(out) len(err) outTrunc errTrunc] (-want +got):\n%s", d)
			}
			if strings.Trim(r.Stdout, "o") != "" || strings.Trim(r.Stderr, "e") != "" {
				t.Errorf("streams mixed up: %.20q / %.20q", r.Stdout, r.Stderr)
			}
		})
	}
}

func TestRunExitCodes(t *testing.T) {
	for _, code := range []string{"0", "1", "3", "42"} {
		t.Run(code, func(t *testing.T) {
			r := Run(context.Background(), helperRequest(t, "exit", code))
			if r.ReturnCode == nil {
				t.Fatalf("no return code: %+v", r)
			}
			if want, _ := strconv.Atoi(code); *r.ReturnCode != want {
				got := *r.ReturnCode
				t.Errorf("returncode = %d, want %s", got, code)
			}
			if r.Succeeded != (code == "0") || !r.ExecutionStarted || !r.OutputCaptureComplete || r.Error != "" {
				t.Errorf("receipt %+v", r)
			}
		})
	}
}

// TestRunChildCannotReadParentStdin swaps the test's own stdin for a pipe full of data:
// a runner that inherited stdin would let the child read it.
func TestRunChildCannotReadParentStdin(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pw.WriteString("secret from the MCP client\n")
	pw.Close()
	saved := os.Stdin
	os.Stdin = pr
	t.Cleanup(func() { os.Stdin = saved; pr.Close() })

	r := Run(context.Background(), helperRequest(t, "stdin"))
	if !r.Succeeded || r.Stdout != "read 0 bytes, err=<nil>" {
		t.Errorf("child stdin: %q (%+v)", r.Stdout, r)
	}
}

func TestRunUsesExplicitDirAndEnv(t *testing.T) {
	req := helperRequest(t, "cwd")
	r := Run(context.Background(), req)
	gotDir, _ := filepath.EvalSymlinks(r.Stdout)
	wantDir, _ := filepath.EvalSymlinks(req.Dir)
	if !r.Succeeded || !strings.EqualFold(gotDir, wantDir) {
		t.Errorf("cwd = %q, want %q (%+v)", r.Stdout, req.Dir, r)
	}
	req = helperRequest(t, "env", "PROC_TEST_VALUE")
	req.Env = append(req.Env, "PROC_TEST_VALUE=per-call")
	if r := Run(context.Background(), req); r.Stdout != "per-call" {
		t.Errorf("env value = %q", r.Stdout)
	}
}

func TestRunDecodesUTF8WithReplacement(t *testing.T) {
	req := helperRequest(t, "raw", "e29c93ff41e29c") // ✓, invalid byte, A, cut sequence
	r := Run(context.Background(), req)
	if want := "✓\uFFFDA\uFFFD"; r.Stdout != want {
		t.Errorf("stdout = %q, want %q", r.Stdout, want)
	}
}

func TestRunRefusesBeforeStart(t *testing.T) {
	helper := helperPath(t)
	dir := t.TempDir()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		req     Request
		wantErr string
		check   func(Receipt) bool
	}{
		{"empty argv", context.Background(), Request{Dir: dir}, "at least the executable", nil},
		{"relative argv[0]", context.Background(), Request{Argv: []string{"helper"}, Dir: dir}, "absolute path", nil},
		{"relative argv[0] with dir", context.Background(), Request{Argv: []string{filepath.Join(".", "x")}, Dir: dir}, "absolute path", nil},
		{"missing executable", context.Background(), Request{Argv: []string{filepath.Join(dir, "missing.exe")}, Dir: dir}, "Executable not found", nil},
		{"directory as executable", context.Background(), Request{Argv: []string{dir + string(filepath.Separator) + "."}, Dir: dir}, "", nil},
		{"no working directory", context.Background(), Request{Argv: []string{helper}}, "Working directory is required", nil},
		{"relative working directory", context.Background(), Request{Argv: []string{helper}, Dir: "rel"}, "Working directory must be an absolute path", nil},
		{"missing working directory", context.Background(), Request{Argv: []string{helper}, Dir: filepath.Join(dir, "nope")}, "Working directory is not a directory", nil},
		{"negative limit", context.Background(), Request{Argv: []string{helper}, Dir: dir, StdoutLimit: -1}, "must not be negative", nil},
		{"cancelled context", cancelled, Request{Argv: []string{helper}, Dir: dir}, "cancelled before start", func(r Receipt) bool { return r.Cancelled }},
		{"invalid expected identity", context.Background(), Request{Argv: []string{helper}, Dir: dir, Expected: &Identity{Kind: KindFile, SHA256: "abc"}},
			"identity is invalid", func(r Receipt) bool { return r.IdentityInvalid }},
		{"unknown expected kind", context.Background(), Request{Argv: []string{helper}, Dir: dir, Expected: &Identity{Kind: "batch", SHA256: strings.Repeat("0", 64)}},
			"identity is invalid", func(r Receipt) bool { return r.IdentityInvalid }},
		{"stale expected identity", context.Background(), Request{Argv: []string{helper}, Dir: dir, Expected: &Identity{Kind: KindFile, SHA256: strings.Repeat("0", 64)}},
			"identity changed", func(r Receipt) bool { return r.IdentityMismatch }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Run(tc.ctx, tc.req)
			if r.ExecutionStarted || r.Succeeded || r.ReturnCode != nil || r.Error == "" {
				t.Fatalf("not refused before start: %+v", r)
			}
			if !strings.Contains(r.Error, tc.wantErr) {
				t.Errorf("error %q does not contain %q", r.Error, tc.wantErr)
			}
			if tc.check != nil && !tc.check(r) {
				t.Errorf("flag not set: %+v", r)
			}
			if d := cmp.Diff(append([]string(nil), tc.req.Argv...), r.Argv); d != "" {
				t.Errorf("argv (-want +got):\n%s", d)
			}
		})
	}
}

// TestRunIdentityChangedAfterReview fingerprints a copy of the helper, runs it sealed to
// that identity, changes its bytes, and checks the second run never starts.
func TestRunIdentityChangedAfterReview(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, filepath.Base(helperPath(t)))
	copyFile(t, helperPath(t), exe)
	id, err := Fingerprint(exe)
	if err != nil {
		t.Fatal(err)
	}
	if id.Kind != KindFile || !id.Valid() {
		t.Fatalf("Fingerprint = %+v", id)
	}
	req := Request{Argv: []string{exe}, Dir: dir, Env: helperEnvFor("exit"), Expected: &id}
	req.Argv = append(req.Argv, "0")
	if r := Run(context.Background(), req); !r.Succeeded {
		t.Fatalf("sealed run of the reviewed file failed: %+v", r)
	}
	f, err := os.OpenFile(exe, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0})
	f.Close()
	r := Run(context.Background(), req)
	if r.ExecutionStarted || !r.IdentityMismatch || !strings.Contains(r.Error, "identity changed") {
		t.Errorf("changed file was not refused: %+v", r)
	}
	if now, _ := Fingerprint(exe); now.Equal(id) {
		t.Error("fingerprint did not change with the bytes")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestFingerprintRefusesNonFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"relative.exe", dir, filepath.Join(dir, "missing.exe")} {
		if id, err := Fingerprint(p); err == nil {
			t.Errorf("Fingerprint(%q) = %+v, want an error", p, id)
		}
	}
}

// TestRunTimeoutKillsTree runs a child that hangs; the run must time out with the
// contract's message and report the process as started.
func TestRunTimeout(t *testing.T) {
	req := helperRequest(t, "hang")
	req.Timeout = 1
	r := Run(context.Background(), req)
	if !r.TimedOut || !r.ExecutionStarted || r.Succeeded || r.Error != "Process timed out after 1 seconds" {
		t.Errorf("receipt %+v", r)
	}
	if r.LifecycleError != "" || !r.OutputCaptureSettled || !r.OutputCaptureComplete {
		t.Errorf("the tree kill should close every pipe cleanly: %+v", r)
	}
}

// TestRunCancelKillsTree cancels the context once the child reports it is running.
func TestRunCancelKillsTree(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		bufio.NewReader(c).ReadString('\n')
		c.Close()
		cancel()
	}()
	req := helperRequest(t, "hang", ln.Addr().String())
	r := Run(ctx, req)
	if !r.ExecutionStarted || !r.Cancelled || r.TimedOut || r.Succeeded || !strings.Contains(r.Error, "cancelled") {
		t.Errorf("receipt %+v", r)
	}
	if r.ReturnCode == nil {
		t.Error("return code of the killed child unknown")
	}
}

func TestExecImplementsRunner(t *testing.T) {
	var run Runner = Exec{}
	if r := run.Run(context.Background(), helperRequest(t, "exit", "0")); !r.Succeeded {
		t.Errorf("Exec.Run: %+v", r)
	}
}

func TestLaunchRefusals(t *testing.T) {
	dir := t.TempDir()
	stale := &Identity{Kind: KindFile, SHA256: strings.Repeat("0", 64)}
	_, err := Launch(Request{Argv: []string{helperPath(t)}, Dir: dir, Expected: stale})
	var le *LaunchError
	if !errors.As(err, &le) || !le.Receipt.IdentityMismatch || le.Receipt.ExecutionStarted {
		t.Errorf("stale identity: %v %+v", err, le)
	}
	_, err = Launch(Request{Argv: []string{"relative"}, Dir: dir})
	if !errors.As(err, &le) || le.Receipt.IdentityMismatch || !strings.Contains(err.Error(), "absolute path") {
		t.Errorf("relative argv: %v", err)
	}
}

func TestLaunchDoesNotWait(t *testing.T) {
	req := helperRequest(t, "exit", "0")
	l, err := Launch(req)
	if err != nil {
		t.Fatal(err)
	}
	if l.PID <= 0 {
		t.Errorf("PID = %d", l.PID)
	}
	<-l.Done
}

func BenchmarkRunTrue(b *testing.B) {
	argv := []string{"/bin/true"}
	var env []string
	if _, err := os.Stat(argv[0]); err != nil {
		argv = []string{helperPath(b), "0"}
		env = helperEnvFor("exit")
	}
	id, err := Fingerprint(argv[0])
	if err != nil {
		b.Fatal(err)
	}
	req := Request{Argv: argv, Dir: b.TempDir(), Env: env, Expected: &id}
	b.ResetTimer()
	for b.Loop() {
		if r := Run(context.Background(), req); !r.Succeeded {
			b.Fatalf("%+v", r)
		}
	}
}

// TestReceiptJSONCancelled: cancelled is part of the JSON contract and absent unless set.
func TestReceiptJSONCancelled(t *testing.T) {
	for _, tc := range []struct {
		r    Receipt
		want bool
	}{{Receipt{Cancelled: true}, true}, {Receipt{}, false}} {
		b, err := json.Marshal(tc.r)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(b), `"cancelled":true`); got != tc.want || !tc.want && strings.Contains(string(b), "cancelled") {
			t.Errorf("%s: cancelled present %v, want %v", b, got, tc.want)
		}
	}
}
