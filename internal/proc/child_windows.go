//go:build windows

package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// tree is the child's Job Object (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE) and a handle to
// the child itself. Descendants join the job automatically, so terminating or closing
// the job ends the whole tree; taskkill is not needed.
type tree struct {
	job  windows.Handle
	proc windows.Handle
}

const stillActive = 259 // STILL_ACTIVE from GetExitCodeProcess

// startContained creates the child suspended, puts it into a fresh kill-on-close job,
// and only then lets its first thread run, so no descendant can be created outside the
// job. If containment fails the child is terminated before it ever ran. The job handle
// is the server's alone and is closed only when the run ends, so a server that dies
// mid-run takes the whole tree with it (docs/process-runner.md §4.1).
func startContained(cmd *exec.Cmd, _ *prepared) (*osProcess, *Receipt, error) {
	job, err := newKillOnCloseJob()
	if err != nil {
		return nil, nil, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED | windows.CREATE_NO_WINDOW,
	}
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return nil, nil, err
	}
	t := tree{job: job}
	t.proc, err = windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|
		windows.PROCESS_QUERY_INFORMATION|windows.SYNCHRONIZE, false, uint32(cmd.Process.Pid))
	if err == nil {
		err = windows.AssignProcessToJobObject(job, t.proc)
	}
	if err == nil {
		err = resumeProcess(uint32(cmd.Process.Pid))
	}
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.close()
		return nil, nil, fmt.Errorf("process could not be contained in a job object: %w", err)
	}
	return newOSProcess(cmd, t), nil, nil
}

func newKillOnCloseJob() (windows.Handle, error) {
	// No security attributes: the handle is not inheritable. A child holding a copy
	// would keep the job open, so kill-on-close would no longer fire with the server.
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("CreateJobObject: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, fmt.Errorf("SetInformationJobObject: %w", err)
	}
	return job, nil
}

// resumeProcess resumes the threads of a process created suspended. os.StartProcess
// closes the main thread handle, so the thread is found with a Toolhelp snapshot.
func resumeProcess(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("CreateToolhelp32Snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("OpenThread: %w", err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("ResumeThread: %w", err)
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("no thread of the new process was found to resume")
	}
	return nil
}

// waitAndSweep waits for the child, then terminates whatever is left in its job.
func (t tree) waitAndSweep(cmd *exec.Cmd) (int, error) {
	rc, err := waitCmd(cmd)
	_ = windows.TerminateJobObject(t.job, 1)
	return rc, err
}

// kill terminates the job and, unless it is known to have exited, the child directly.
func (t tree) kill(p *osProcess) {
	_ = windows.TerminateJobObject(t.job, 1)
	if _, known := p.poll(); !known {
		_ = windows.TerminateProcess(t.proc, 1)
	}
}

// pollExit reads the exit code from the held handle; STILL_ACTIVE and errors mean
// "still running".
func (t tree) pollExit() (int, bool) {
	var code uint32
	if t.proc == 0 || windows.GetExitCodeProcess(t.proc, &code) != nil || code == stillActive {
		return 0, false
	}
	return int(code), true
}

// close closes the job (kill-on-close ends any survivor) and the process handle.
func (t tree) close() {
	if t.job != 0 {
		windows.CloseHandle(t.job)
	}
	if t.proc != 0 {
		windows.CloseHandle(t.proc)
	}
}

func exitCode(ps *os.ProcessState) int { return ps.ExitCode() }

// startDetached starts a launched (not run) child in its own console process group. It
// is not put in a job: an interactive program must survive the call that started it.
func startDetached(cmd *exec.Cmd, _ *prepared) (*Receipt, error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	return nil, cmd.Start()
}
