//go:build linux

package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// heldExecutable is where the child finds the held executable: the first inherited
// descriptor. exec.Cmd puts ExtraFiles[0] at fd 3 before it calls execve, and a #!
// interpreter opens the same path after the exec, so it must stay inherited.
const heldExecutable = "/proc/self/fd/3"

// sealExecutable opens the executable once and has the child start that open file, not
// the path: a rename or replacement of the path after this point cannot change what
// runs. With a reviewed identity the bytes are hashed at the exec stop, when the kernel
// already refuses writers to a running binary (docs/process-runner.md §3.2).
func sealExecutable(p *prepared, exe string, expected *Identity) *Receipt {
	f, err := openExecutable(exe)
	if err != nil {
		return sealFailure(p.args, expected, err)
	}
	s := &sealedFile{f: f}
	p.seals = append(p.seals, s)
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
