//go:build linux

package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"
)

// heldExecutable is where the child finds the held executable: the first inherited
// descriptor. exec.Cmd puts ExtraFiles[0] at fd 3 before it calls execve.
const heldExecutable = "/proc/self/fd/3"

// sealExecutable opens the executable once. A native program is started from that
// open file, not the path: a rename or replacement of the path after this point cannot
// change what runs, and with a reviewed identity the bytes are hashed at the exec
// stop, when the kernel already refuses writers to a running binary. Its argv[0] stays
// the requested path. A #! script is started by its path instead, so its interpreter
// gets that path as $0 (docs/process-runner.md §3.2).
func sealExecutable(p *prepared, exe string, expected *Identity) *Receipt {
	f, err := openExecutable(exe)
	if err != nil {
		return sealFailure(p.args, expected, err)
	}
	s := &sealedFile{f: f}
	p.seals = append(p.seals, s)
	if head := readHead(f); isScript(head) {
		if expected == nil {
			// Unreviewed: the kernel starts it by its path, as a shell would.
			p.path = exe
			return nil
		}
		return p.sealScript(s, exe, head, expected)
	}
	p.path = heldExecutable
	p.extra = []*os.File{f}
	if expected == nil {
		return nil
	}
	argv := p.args
	p.verify = func() *Receipt {
		id, err := hashFile(f)
		if err != nil {
			return sealFailure(argv, expected, err)
		}
		s.id = id
		if !id.Equal(*expected) {
			return identityChanged(argv, exe)
		}
		return nil
	}
	return nil
}

// sealScript prepares a reviewed #! script. Its interpreter reads it by path after it
// starts, so the held file cannot be what runs without making $0 a descriptor path,
// which breaks every script that finds its siblings through dirname "$0" (npm and pnpm
// shims, version-manager shims). What is kept instead (docs/process-runner.md §3.2):
// the interpreter and its argument are taken from the held file's #! line, as the
// kernel would read it, and started directly with the script's path as its operand;
// at the exec stop the held file must still hash to the reviewed identity, its #! line
// must be the one the interpreter was chosen from, and the path must still name the
// held file. A rename or write after that check, before the interpreter has read the
// script, is the residual that section states.
func (p *prepared) sealScript(s *sealedFile, exe string, head []byte, expected *Identity) *Receipt {
	argv := p.args
	prefix, ok := shebang(head)
	if !ok {
		return refusal(argv, "Executable %s starts with #! but its first line names no interpreter", exe)
	}
	if !filepath.IsAbs(prefix[0]) {
		return refusal(argv, "Executable %s is a #! script whose interpreter is not an absolute path: %q", exe, prefix[0])
	}
	// The kernel would check that the script itself may be executed (its mode, a
	// noexec mount); starting its interpreter directly must not skip that.
	if err := unix.Faccessat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", s.f.Fd()), unix.X_OK, 0); err != nil {
		return refusal(argv, "Executable %s cannot be executed: %v", exe, err)
	}
	p.path = prefix[0]
	p.args = append(append(slices.Clone(prefix), exe), argv[1:]...)
	p.verify = func() *Receipt {
		id, got, err := hashFileHead(s.f, len(head))
		if err != nil {
			return sealFailure(argv, expected, err)
		}
		s.id = id
		if !id.Equal(*expected) || !bytes.Equal(got, head) {
			return identityChanged(argv, exe)
		}
		held, herr := s.f.Stat()
		now, nerr := os.Stat(exe)
		if herr != nil || nerr != nil || !os.SameFile(held, now) {
			return identityChanged(argv, exe)
		}
		return nil
	}
	return nil
}

// readHead is the first bytes of f the kernel looks at to tell a script (at most
// shebangBuf), read with pread so no offset moves.
func readHead(f *os.File) []byte {
	b := make([]byte, shebangBuf)
	n, _ := f.ReadAt(b, 0)
	return b[:n]
}

// isScript reports whether a file's first bytes start with #!.
func isScript(head []byte) bool { return len(head) >= 2 && head[0] == '#' && head[1] == '!' }

// hashFileHead is hashFile that also returns the first n bytes it hashed, so what was
// compared with the reviewed identity and what the #! line was read from are the same
// bytes.
func hashFileHead(f *os.File, n int) (Identity, []byte, error) {
	h := newHash()
	head := &prefixWriter{n: n}
	if _, err := io.Copy(io.MultiWriter(h, head), io.NewSectionReader(f, 0, math.MaxInt64)); err != nil {
		return Identity{}, nil, err
	}
	return Identity{Kind: KindFile, SHA256: sumHex(h)}, head.b, nil
}

// prefixWriter keeps the first n bytes written to it.
type prefixWriter struct {
	b []byte
	n int
}

func (w *prefixWriter) Write(p []byte) (int, error) {
	if room := w.n - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// heldWorkDir gives the child the held directory itself: the child changes into
// /proc/self/fd/N before its descriptors are rearranged for the exec, so N is our own
// descriptor number. The directory is duplicated first so a caller closing its handle
// early cannot let the number name something else.
func heldWorkDir(h *os.File) (workDir, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(h.Fd()), &st); err != nil {
		return workDir{}, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return workDir{}, errors.New("not a directory")
	}
	if st.Nlink == 0 {
		return workDir{}, errors.New("the directory has been removed")
	}
	fd, err := unix.FcntlInt(h.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return workDir{}, fmt.Errorf("duplicate: %w", err)
	}
	d := os.NewFile(uintptr(fd), h.Name())
	dir := fmt.Sprintf("/proc/self/fd/%d", fd)
	// PWD is the directory's current name, read through the same descriptor.
	pwd, err := os.Readlink(dir)
	if err != nil || !filepath.IsAbs(pwd) {
		pwd = ""
	}
	return workDir{dir: dir, pwd: pwd, held: d}, nil
}
