package proc

import (
	"fmt"
	"os"
	"path/filepath"
)

// prepared is a request that passed every precondition: the program to start, the argv
// handed to it, and the seals that must stay held until the child exists.
type prepared struct {
	path  string
	args  []string
	seals []*sealedFile
}

// release drops every seal. It is called once the child has been created (or failed to be).
func (p *prepared) release() {
	for _, s := range p.seals {
		s.Close()
	}
	p.seals = nil
}

// refusal builds the receipt of a run that never started.
func refusal(argv []string, format string, a ...any) *Receipt {
	return &Receipt{Argv: argv, Error: fmt.Sprintf(format, a...)}
}

// prepare checks the preconditions of §7.2 in order and seals the executable (and, for
// a .ps1 target, the PowerShell interpreter). On refusal it returns the receipt to hand
// back, with ExecutionStarted false and nothing held.
func prepare(req Request) (*prepared, *Receipt) {
	argv := append([]string(nil), req.Argv...)
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
	if req.Dir == "" {
		return nil, refusal(argv, "Working directory is required: the runner never falls back to its own cwd")
	}
	if !filepath.IsAbs(req.Dir) {
		return nil, refusal(argv, "Working directory must be an absolute path: %q", req.Dir)
	}
	if fi, err := os.Stat(req.Dir); err != nil || !fi.IsDir() {
		return nil, refusal(argv, "Working directory is not a directory: %s", req.Dir)
	}
	if req.StdoutLimit < 0 || req.StderrLimit < 0 {
		return nil, refusal(argv, "Output limits must not be negative (stdout %d, stderr %d)", req.StdoutLimit, req.StderrLimit)
	}
	if req.Timeout < 0 {
		return nil, refusal(argv, "Timeout must not be negative: %s", req.Timeout)
	}

	p := &prepared{path: exe, args: argv}
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
	s, err := openSeal(exe)
	if err != nil {
		if req.Expected == nil {
			// Nothing was reviewed: this is a snapshot that could not be taken.
			r := refusal(argv, "Executable identity could not be established: %v", err)
			r.IdentityUnavailable = true
			return nil, r
		}
		r := refusal(argv, "Executable identity could not be held: %v", err)
		r.IdentityMismatch = true
		return nil, r
	}
	p.seals = append(p.seals, s)
	// Without a reviewed identity the seal itself is the snapshot: the bytes hashed
	// now are the bytes held until the spawn.
	if req.Expected != nil && !s.id.Equal(*req.Expected) {
		p.release()
		r := refusal(argv, "Executable identity changed since it was reviewed: %s", exe)
		r.IdentityMismatch = true
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
