package main

// A long capability_run against the real binary, ended by the client's cancellation,
// by shutdown (docs/transport.md, "Shutdown") or refused a duplicate id. The run's
// process tree is watched through a pipe every process of it holds (longrun_e2e_*):
// the test learns that the tree started from a line it writes, and that it is gone
// from the pipe's end of file. Nothing waits on a clock.

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// heldTree is a long run's process tree as the test sees it.
type heldTree interface {
	// started returns once the deepest process of the tree reported in.
	started() error
	// gone returns once every process of the tree has exited.
	gone() error
}

// bound only turns a hang into a failure: it is far below the run's own 600 s timeout,
// so a server that waits for that timeout fails, and nothing waits for it to pass.
const bound = 90 * time.Second

func bounded(t *testing.T, what string, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(bound):
		t.Fatalf("%s: not within %v", what, bound)
	}
}

// startLongRun starts wda mcp with a catalog whose capability long-run holds its tree
// until it is killed.
func startLongRun(t *testing.T) (*rawServer, heldTree) {
	t.Helper()
	catalog, env, tree := longRunCatalog(t)
	return startRaw(t, append(env, "WINDOWS_DEV_AGENT_CATALOG="+catalog)...), tree
}

// beginLongRun plans long-run, executes it under the raw request id and returns once
// its tree is up.
func beginLongRun(t *testing.T, s *rawServer, tree heldTree, id string) {
	t.Helper()
	s.send(`{"jsonrpc":"2.0","id":"plan","method":"tools/call","params":{"name":"capability_run","arguments":{"capability":"long-run"}}}`)
	plan := s.recv()
	res, _ := plan["result"].(map[string]any)
	sc, _ := res["structuredContent"].(map[string]any)
	if sc["status"] != "planned" {
		t.Fatalf("plan: %v", plan)
	}
	// The plan's execute_arguments are the executing call's arguments (docs/cli.md,
	// "execute_arguments"); only the timeout is raised past the run's life.
	args, _ := sc["execute_arguments"].(map[string]any)
	if args == nil {
		t.Fatalf("plan without execute_arguments: %v", plan)
	}
	args["timeout_seconds"] = 600
	params, _ := json.Marshal(map[string]any{"name": "capability_run", "arguments": args})
	s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":%s}`, id, params))
	bounded(t, "the run's tree starting", tree.started)
}

// checkRunReply insists the reply to a cancelled run is a result with status cancelled
// (its effect is unknown) and execution_started, or a request-cancelled error.
func checkRunReply(t *testing.T, m map[string]json.RawMessage) {
	t.Helper()
	if r := summarize(m); r.Code != 0 {
		if r.Code != -32800 {
			t.Fatalf("cancelled run answered with error %s", m["error"])
		}
		return
	}
	var res struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	json.Unmarshal(m["result"], &res)
	if res.StructuredContent["status"] != "cancelled" || res.StructuredContent["execution_started"] != true ||
		res.StructuredContent["cancelled"] != true {
		t.Fatalf("cancelled run answered %s", m["result"])
	}
}

// notifications/cancelled stops the run and its whole tree; the cancelled call gets no
// reply (the MCP specification: a receiver SHOULD NOT answer a cancelled request;
// docs/transport.md §5) and the server keeps serving.
func TestE2ECancelKillsTree(t *testing.T) {
	s, tree := startLongRun(t)
	beginLongRun(t, s, tree, "2")
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"test"}}`)
	bounded(t, "the tree ending after cancellation", tree.gone)
	s.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	expectOnly(t, s, "3", "2")
}

// expectOnly reads messages until the reply to id want, failing on a reply to the
// cancelled id: the ping is sent after the cancellation, so a reply to the cancelled
// request would have been written first.
func expectOnly(t *testing.T, s *rawServer, want, cancelled string) {
	t.Helper()
	for {
		m := s.recvRaw()
		switch string(m["id"]) {
		case cancelled:
			t.Fatalf("the cancelled request %s was answered: %v", cancelled, m)
		case want:
			if r := summarize(m); r.Code != 0 {
				t.Fatalf("reply to %s is an error: %s", want, m["error"])
			}
			return
		}
	}
}

// Twenty requests share one id while the first is in flight: the nineteen others are
// refused naming the id, none vanishes; after the first is cancelled it gets no reply,
// and its id is free again at once.
func TestE2EDuplicateInFlightID(t *testing.T) {
	s, tree := startLongRun(t)
	beginLongRun(t, s, tree, "7")
	for i := range 19 {
		s.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
		m := s.recvRaw()
		if got := summarize(m); got != (reply{"7", -32600}) {
			t.Fatalf("duplicate %d answered %+v: %s", i, got, m["error"])
		}
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
	bounded(t, "the tree ending after cancellation", tree.gone)
	s.send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	expectOnly(t, s, "8", "7")
	s.send(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	expectOnly(t, s, "7", "")
}

// Shutdown (each trigger of this platform) during a run: the tree ends, the run is
// answered, and the server exits 0.
func TestE2EShutdownEndsTheRun(t *testing.T) {
	for _, tr := range shutdownTriggers() {
		t.Run(tr.name, func(t *testing.T) {
			s, tree := startLongRun(t)
			beginLongRun(t, s, tree, `"run"`)
			if err := tr.fire(s); err != nil {
				t.Fatal(err)
			}
			bounded(t, "the tree ending after "+tr.name, tree.gone)
			m := s.recvRaw()
			if string(m["id"]) != `"run"` {
				t.Fatalf("reply %v", m)
			}
			checkRunReply(t, m)
			bounded(t, "wda exiting 0 after "+tr.name, s.cmd.Wait)
		})
	}
}

type trigger struct {
	name string
	fire func(*rawServer) error
}

func closeStdin(s *rawServer) error { return s.in.Close() }
