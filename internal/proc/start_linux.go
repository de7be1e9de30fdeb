//go:build linux

package proc

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// startContained starts cmd as the leader of a new process group with SIGKILL as its
// parent-death signal, and, when p has a reviewed identity, checks the executable at
// the exec stop before letting the program run (docs/process-runner.md §3.2, §4.1).
//
// The kernel sends the parent-death signal when the thread that forked the child
// exits, not the process (go.dev/issue/27505). The Go runtime only ever ends a thread
// whose goroutine exits while locked to it, so the start, the exec-stop check and the
// wait all happen on one goroutine locked to its thread for as long as the child
// lives: the signal fires when the server dies and never because some thread retired.
// The same thread is the tracer, which ptrace requires for the detach.
func startContained(cmd *exec.Cmd, p *prepared) (*osProcess, *Receipt, error) {
	traced := p.verify != nil
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Ptrace: traced}
	proc := &osProcess{cmd: cmd, done: make(chan struct{})}
	type started struct {
		refused *Receipt
		err     error
	}
	res := make(chan started, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			res <- started{err: startError(err, p, traced)}
			return
		}
		if traced {
			if refused, err := releaseAtExec(cmd, p.verify); refused != nil || err != nil {
				res <- started{refused, err}
				return
			}
		}
		proc.tree = tree{pgid: cmd.Process.Pid}
		res <- started{}
		defer close(proc.done)
		proc.rc, proc.err = proc.tree.waitAndSweep(cmd)
	}()
	r := <-res
	if r.refused != nil || r.err != nil {
		return nil, r.refused, r.err
	}
	return proc, nil, nil
}

// startDetached starts a launched child in its own process group, without a
// parent-death signal (it must outlive the call), checked at the exec stop like a run.
func startDetached(cmd *exec.Cmd, p *prepared) (*Receipt, error) {
	traced := p.verify != nil
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Ptrace: traced}
	if !traced {
		return nil, cmd.Start()
	}
	type started struct {
		refused *Receipt
		err     error
	}
	res := make(chan started, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			res <- started{err: startError(err, p, traced)}
			return
		}
		refused, err := releaseAtExec(cmd, p.verify)
		res <- started{refused, err}
	}()
	r := <-res
	return r.refused, r.err
}

// startError names the executable by its requested path rather than what the kernel
// was given (the descriptor path of a native program, the interpreter of a reviewed
// script), and explains the failures that adds. Without /proc the descriptor path does
// not exist. PTRACE_TRACEME may be refused (a seccomp policy, Yama ptrace_scope 3, the
// server itself being traced); without the exec stop the reviewed bytes cannot be
// checked where they can no longer change, so the run is refused rather than started
// unchecked. The child reports only an errno, not which step failed, hence the
// conditional wording.
func startError(err error, p *prepared, traced bool) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	hint := ""
	switch {
	case pe.Path != p.exe && pe.Path != heldExecutable:
		// A reviewed #! script, started through the interpreter its #! line names.
		if errors.Is(pe.Err, syscall.ENOENT) {
			hint = fmt.Sprintf(" (its #! interpreter %s was not found)", pe.Path)
		} else {
			hint = fmt.Sprintf(" (starting its #! interpreter %s)", pe.Path)
		}
	case pe.Path == p.exe && errors.Is(pe.Err, syscall.ENOENT):
		// An unreviewed #! script started by its path: the file was there a moment ago.
		hint = " (its #! interpreter was not found)"
	case pe.Path == heldExecutable && errors.Is(pe.Err, syscall.ENOENT):
		hint = " (it is started from its open file through /proc/self/fd, which needs /proc)"
	}
	if traced && errors.Is(pe.Err, syscall.EPERM) {
		hint += " (a reviewed executable is checked at its exec stop, which needs ptrace(PTRACE_TRACEME) to be permitted)"
	}
	return fmt.Errorf("%s %s: %w%s", pe.Op, p.exe, pe.Err, hint)
}

// Values of siginfo.si_code for SIGCHLD (include/uapi/asm-generic/siginfo.h).
const cldTrapped = 4

// releaseAtExec runs verify while the traced child sits in the stop the kernel puts it
// in right after a successful execve, before the new program's first instruction. A
// binary being executed cannot be opened for writing from then on (ETXTBSY), so the
// bytes verify hashes are the bytes that run. On success the child is detached and
// runs untraced; otherwise it is killed and reaped, never having run.
func releaseAtExec(cmd *exec.Cmd, verify func() *Receipt) (*Receipt, error) {
	pid := cmd.Process.Pid
	code, status, err := waitStop(pid)
	switch {
	case err != nil:
		err = fmt.Errorf("waiting for the exec stop: %w", err)
	case code != cldTrapped || status != int32(syscall.SIGTRAP):
		err = fmt.Errorf("process did not stop after exec (si_code %d, status %d)", code, status)
	default:
		if refused := verify(); refused != nil {
			reap(cmd)
			return refused, nil
		}
		if err = unix.PtraceDetach(pid); err == nil {
			return nil, nil
		}
		err = fmt.Errorf("releasing the checked process: %w", err)
	}
	reap(cmd)
	return nil, err
}

// reap kills a child that must not run and collects it.
func reap(cmd *exec.Cmd) {
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
}

// waitStop waits until pid stops or ends without reaping it (WNOWAIT), so a child that
// died instead is still there for cmd.Wait.
func waitStop(pid int) (code, status int32, err error) {
	var info unix.Siginfo
	for {
		err = unix.Waitid(unix.P_PID, pid, &info, unix.WSTOPPED|unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return 0, 0, err
	}
	return info.Code, sigchldStatus(&info), nil
}

// sigchldStatus reads si_status: the SIGCHLD fields (si_pid, si_uid, si_status) follow
// the three leading ints, aligned to the pointer size.
func sigchldStatus(info *unix.Siginfo) int32 {
	off := 12
	if unsafe.Sizeof(uintptr(0)) == 8 {
		off = 16
	}
	return *(*int32)(unsafe.Add(unsafe.Pointer(info), off+8)) //nolint:gosec // G103: reads a documented field of the kernel's siginfo that x/sys does not name
}
