package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// prepared is a request that passed every precondition: what the OS is asked to start,
// the argv handed to it, the working directory as the OS gets it, and everything that
// must stay held until the child exists.
type prepared struct {
	exe   string   // the executable as requested (the caller's argv[0])
	path  string   // what exec.Cmd starts (on Linux the held executable, /proc/self/fd/3)
	args  []string // the child's argv; the requested path is argv[0], or the script operand of its interpreter
	seals []*sealedFile
	extra []*os.File // inherited by the child from fd 3 on
	dir   string     // the child's working directory as the OS is given it
	env   []string   // nil inherits (Windows only; Unix always sets PWD)
	held  []closer   // duplicated directory handles, closed with the seals
	// verify, when set, runs once the child has been created but before its program
	// executes an instruction (Linux, docs/process-runner.md §3.2); a non-nil receipt
	// refuses the run.
	verify func() *Receipt //nolint:unused // set and read on Linux only (seal_linux.go, start_linux.go)
}

type closer interface{ Close() error }

// release drops every seal and held handle. It is called once the child has been
// created (or failed to be).
func (p *prepared) release() {
	for _, s := range p.seals {
		s.Close()
	}
	for _, h := range p.held {
		_ = h.Close() // read-only duplicated directory handles
	}
	p.seals, p.held = nil, nil
}

// command is the exec.Cmd that starts p; the caller sets the output streams.
func (p *prepared) command() *exec.Cmd {
	return &exec.Cmd{
		Path:       p.path,
		Args:       p.args,
		Dir:        p.dir,
		Env:        p.env,
		ExtraFiles: p.extra,
		// nil Stdin: the null device, so a child can never read the server's stdin.
	}
}

// refusal builds the receipt of a run that never started.
func refusal(argv []string, format string, a ...any) *Receipt {
	return &Receipt{Argv: argv, Error: fmt.Sprintf(format, a...)}
}

// prepare checks the preconditions of docs/process-runner.md §1 in order and seals the
// executable (and, for a .ps1 target, the PowerShell interpreter). On refusal it returns
// the receipt to hand back, with ExecutionStarted false and nothing held.
func prepare(req Request) (*prepared, *Receipt) {
	argv := slices.Clone(req.Argv)
	if len(argv) == 0 {
		return nil, refusal(argv, "argv must contain at least the executable")
	}
	exe := argv[0]
	if !filepath.IsAbs(exe) {
		return nil, refusal(argv, "Executable must be an absolute path: %q", exe)
	}
	if err := checkTarget(exe); err != nil {
		return nil, refusal(argv, "%s", err.Error())
	}
	if fi, err := os.Stat(exe); err != nil {
		return nil, refusal(argv, "Executable not found: %s", exe)
	} else if fi.IsDir() {
		return nil, refusal(argv, "Executable is not a file: %s", exe)
	}
	if req.DirHandle == nil {
		if req.Dir == "" {
			return nil, refusal(argv, "Working directory is required: the runner never falls back to its own cwd")
		}
		if !filepath.IsAbs(req.Dir) {
			return nil, refusal(argv, "Working directory must be an absolute path: %q", req.Dir)
		}
		if fi, err := os.Stat(req.Dir); err != nil || !fi.IsDir() {
			return nil, refusal(argv, "Working directory is not a directory: %s", req.Dir)
		}
	}
	if req.StdoutLimit < 0 || req.StderrLimit < 0 {
		return nil, refusal(argv, "Output limits must not be negative (stdout %d, stderr %d)", req.StdoutLimit, req.StderrLimit)
	}
	if req.Timeout < 0 {
		return nil, refusal(argv, "Timeout must not be negative: %s", req.Timeout)
	}
	if req.ProgressInterval < 0 {
		return nil, refusal(argv, "ProgressInterval must not be negative: %s", req.ProgressInterval)
	}
	if req.Expected != nil && !req.Expected.Valid() {
		r := refusal(argv, "Expected executable identity is invalid: kind must be file, app_execution_alias or powershell_script and sha256 must be 64 hexadecimal characters")
		r.IdentityInvalid = true
		return nil, r
	}
	if req.Expected != nil && !kindAllowed(req.Expected.Kind, exe) {
		r := refusal(argv, "Executable identity kind %s does not fit %s", req.Expected.Kind, exe)
		r.IdentityMismatch = true
		return nil, r
	}

	p := &prepared{exe: exe, path: exe, args: argv, dir: req.Dir}
	pwd := req.Dir
	if req.DirHandle != nil {
		wd, err := heldWorkDir(req.DirHandle)
		if err != nil {
			return nil, refusal(argv, "Working directory handle cannot be used: %v", err)
		}
		p.dir, pwd = wd.dir, wd.pwd
		if wd.held != nil {
			p.held = append(p.held, wd.held)
		}
	}
	p.env = childEnv(req.Env, pwd)
	if r := sealExecutable(p, exe, req.Expected); r != nil {
		p.release()
		return nil, r
	}
	if isPowerShellScript(exe) && needsInterpreter {
		if r := p.sealInterpreter(argv); r != nil {
			p.release()
			return nil, r
		}
	}
	return p, nil
}

// sealFailure is the refusal when the executable cannot even be opened for sealing.
// Without a reviewed identity it is a snapshot that could not be taken; with one, the
// reviewed file is no longer there to run.
func sealFailure(argv []string, expected *Identity, err error) *Receipt {
	if expected == nil {
		r := refusal(argv, "Executable identity could not be established: %v", err)
		r.IdentityUnavailable = true
		return r
	}
	r := refusal(argv, "Executable identity could not be held: %v", err)
	r.IdentityMismatch = true
	return r
}

// identityChanged is the refusal when the bytes about to run are not the reviewed ones.
func identityChanged(argv []string, exe string) *Receipt {
	r := refusal(argv, "Executable identity changed since it was reviewed: %s", exe)
	r.IdentityMismatch = true
	return r
}

// childEnv is the child's environment. On Unix PWD must name the directory the child
// really starts in (shells and os.Getwd trust a PWD that stats like "."), so it is
// always replaced; on Windows the environment is passed as given.
func childEnv(env []string, pwd string) []string {
	if !setsPWD {
		return env
	}
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PWD=") {
			out = append(out, kv)
		}
	}
	if pwd != "" {
		out = append(out, "PWD="+pwd)
	}
	return out
}

// sealInterpreter runs a .ps1 target through Windows PowerShell from the system
// directory, never PATH, with the interpreter held too.
func (p *prepared) sealInterpreter(argv []string) *Receipt {
	ps, err := SystemBinary(powerShellPath)
	if err != nil {
		r := refusal(argv, "Windows PowerShell is not available: %v", err)
		r.IdentityUnavailable = true
		return r
	}
	snap, err := Fingerprint(ps)
	if err != nil || snap.Kind != KindFile {
		r := refusal(argv, "Windows PowerShell identity could not be established: %s", ps)
		r.IdentityUnavailable = true
		return r
	}
	s, err := openSeal(ps)
	if err != nil {
		r := refusal(argv, "Windows PowerShell identity could not be held: %v", err)
		r.RuntimeIdentityMismatch = true
		return r
	}
	p.seals = append(p.seals, s)
	if !s.id.Equal(snap) {
		r := refusal(argv, "Windows PowerShell identity changed before launch: %s", ps)
		r.RuntimeIdentityMismatch = true
		return r
	}
	p.path = ps
	p.args = append([]string{ps, "-NoProfile", "-NonInteractive", "-File", argv[0]}, argv[1:]...)
	return nil
}

// powerShellPath is Windows PowerShell below the system directory.
const powerShellPath = `WindowsPowerShell\v1.0\powershell.exe`

// workDir is a held working directory resolved for the OS: dir is what the child is
// given, pwd what it is told (Unix PWD), held a duplicate handle kept until the start.
type workDir struct {
	dir, pwd string
	held     closer
}
