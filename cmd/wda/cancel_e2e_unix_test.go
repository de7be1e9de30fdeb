//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// notifications/cancelled stops a long capability_run and its whole process tree. The
// tree (sh and its background sleep) holds the write end of a FIFO; the test reads the
// FIFO until EOF, which arrives exactly when every process of the tree is gone.
func TestE2ECancelKillsTree(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "tree")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	catalog := filepath.Join(dir, "capabilities.yaml")
	script := fmt.Sprintf("exec 3>%s; sleep 300 & echo started >&3; wait", fifo)
	yaml := fmt.Sprintf("long-run:\n  description: a long run for the cancellation test\n  safety: reversible\n  tags: [long]\n  tools:\n    - name: sh\n      argv: [sh, -c, %q]\n", script)
	if err := os.WriteFile(catalog, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startRaw(t, "WINDOWS_DEV_AGENT_CATALOG="+catalog)
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"capability_run","arguments":{"capability":"long-run"}}}`)
	plan := s.recv()
	res, _ := plan["result"].(map[string]any)
	sc, _ := res["structuredContent"].(map[string]any)
	if sc["status"] != "planned" {
		t.Fatalf("plan: %v", plan)
	}
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": "capability_run", "arguments": map[string]any{
		"capability": "long-run", "execute": true, "timeout_seconds": 600,
		"expected_executable": sc["executable"], "expected_executable_identity_kind": sc["executable_identity_kind"], "expected_executable_identity_sha256": sc["executable_identity_sha256"]}}})
	s.send(string(call))

	r, err := os.OpenFile(fifo, os.O_RDONLY, 0) // blocks until the tree opens it
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	br := bufio.NewReader(r)
	if line, err := br.ReadString('\n'); err != nil || line != "started\n" {
		t.Fatalf("tree did not start: %q %v", line, err)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"test"}}`)
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Fatal(err)
	}
	// EOF: neither sh nor its sleep holds the FIFO any more. The server still serves.
	s.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	for {
		if m := s.recv(); m["id"] == 3.0 {
			break
		}
	}
}
