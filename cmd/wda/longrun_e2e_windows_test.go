//go:build windows

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// The Windows long run is this test binary in a helper mode (holdIfAsked): it opens
// the named pipe WDA_E2E_HOLD names and starts itself once more with the pipe as the
// grandchild's stdout, so both processes of the tree hold the pipe; the grandchild
// writes "started". The pipe reads end of file once both are gone.

var pipeSeq atomic.Int64

func longRunCatalog(t *testing.T) (string, []string, heldTree) {
	t.Helper()
	name := fmt.Sprintf(`\\.\pipe\wda-e2e-%d-%d`, os.Getpid(), pipeSeq.Add(1))
	h, err := windows.CreateNamedPipe(windows.StringToUTF16Ptr(name), windows.PIPE_ACCESS_INBOUND,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT, 1, 4096, 4096, 0, nil)
	if err != nil {
		t.Fatalf("CreateNamedPipe: %v", err)
	}
	tree := &pipeTree{h: h}
	t.Cleanup(func() {
		if tree.f != nil {
			tree.f.Close()
		} else {
			windows.CloseHandle(h)
		}
	})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	catalog := filepath.Join(t.TempDir(), "capabilities.yaml")
	yaml := fmt.Sprintf("long-run:\n  description: a long run for the shutdown tests\n  safety: reversible\n  tags: [long]\n  tools:\n    - name: holder\n      argv: [%q]\n", exe)
	if err := os.WriteFile(catalog, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return catalog, []string{"WDA_E2E_HOLD=" + name}, tree
}

type pipeTree struct {
	h windows.Handle
	f *os.File
	r *bufio.Reader
}

func (pt *pipeTree) started() error {
	// Blocks until the child opens the pipe.
	if err := windows.ConnectNamedPipe(pt.h, nil); err != nil && !errors.Is(err, windows.ERROR_PIPE_CONNECTED) {
		return fmt.Errorf("ConnectNamedPipe: %w", err)
	}
	pt.f = os.NewFile(uintptr(pt.h), "tree pipe")
	pt.r = bufio.NewReader(pt.f)
	if line, err := pt.r.ReadString('\n'); err != nil || line != "started\n" {
		return fmt.Errorf("tree did not start: %q %v", line, err)
	}
	return nil
}

func (pt *pipeTree) gone() error {
	_, err := io.Copy(io.Discard, pt.r) // end of file: no process holds the pipe any more
	return err
}

// shutdownTriggers: a Windows host stops a stdio server by closing its stdin (or by
// TerminateProcess, which no process can observe; the job object covers that case).
func shutdownTriggers() []trigger {
	return []trigger{{"stdin closed", closeStdin}}
}

// holdIfAsked runs the helper mode when the environment asks for it, and never
// returns then.
func holdIfAsked() {
	name := os.Getenv("WDA_E2E_HOLD")
	if name == "" {
		return
	}
	if os.Getenv("WDA_E2E_HOLD_GRANDCHILD") != "" {
		os.Stdout.WriteString("started\n")
		// The long run itself: it lasts until the tree is killed.
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	pipe, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		os.Exit(3)
	}
	exe, err := os.Executable()
	if err != nil {
		os.Exit(4)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "WDA_E2E_HOLD_GRANDCHILD=1")
	cmd.Stdout = pipe
	if err := cmd.Start(); err != nil {
		os.Exit(5)
	}
	cmd.Wait()
	os.Exit(0)
}
