//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// longRunCatalog: sh and its background sleep hold the write end of a FIFO; sh writes
// "started" once the sleep runs.
func longRunCatalog(t *testing.T) (string, []string, heldTree) {
	t.Helper()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "tree")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	catalog := filepath.Join(dir, "capabilities.yaml")
	script := fmt.Sprintf("exec 3>%s; sleep 300 & echo started >&3; wait", fifo)
	yaml := fmt.Sprintf("long-run:\n  description: a long run for the shutdown tests\n  safety: reversible\n  tags: [long]\n  tools:\n    - name: sh\n      argv: [sh, -c, %q]\n", script)
	if err := os.WriteFile(catalog, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := &fifoTree{path: fifo}
	t.Cleanup(func() {
		if tree.f != nil {
			tree.f.Close()
		}
	})
	return catalog, nil, tree
}

type fifoTree struct {
	path string
	f    *os.File
	r    *bufio.Reader
}

func (ft *fifoTree) started() error {
	f, err := os.OpenFile(ft.path, os.O_RDONLY, 0) // blocks until the tree opens it
	if err != nil {
		return err
	}
	ft.f, ft.r = f, bufio.NewReader(f)
	if line, err := ft.r.ReadString('\n'); err != nil || line != "started\n" {
		return fmt.Errorf("tree did not start: %q %v", line, err)
	}
	return nil
}

func (ft *fifoTree) gone() error {
	_, err := io.Copy(io.Discard, ft.r) // EOF: no process holds the FIFO any more
	return err
}

func shutdownTriggers() []trigger {
	sig := func(s os.Signal) func(*rawServer) error {
		return func(r *rawServer) error { return r.cmd.Process.Signal(s) }
	}
	return []trigger{{"SIGTERM", sig(syscall.SIGTERM)}, {"SIGINT", sig(syscall.SIGINT)}, {"stdin closed", closeStdin}}
}

// holdIfAsked: the Unix long run is sh, not this binary.
func holdIfAsked() {}
