package main

// Transport fidelity against the real binary (docs/transport.md): ids come back byte
// for byte, no reply carries error code 0, and every request read before the end of
// stdin is answered before the process exits.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	e2eInit        = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	e2eInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// reply is a reply reduced to its raw id and error code (0 for a result).
type reply struct {
	ID   string
	Code int64
}

func summarize(m map[string]json.RawMessage) reply {
	r := reply{ID: string(m["id"])}
	if e := m["error"]; e != nil {
		var we struct{ Code int64 }
		json.Unmarshal(e, &we)
		r.Code = we.Code
	}
	return r
}

func TestE2EIDsEchoedExactly(t *testing.T) {
	s := startRaw(t)
	for _, id := range []string{`1.5`, `9223372036854775808`, `-9223372036854775809`, `1e400`, `-0.0e-7`,
		`123456789012345678901234567890`, `"a\u0062"`, `"<>&\u2028"`, `"\ud800"`, `"日本"`} {
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if got := summarize(s.recvRaw()); got != (reply{id, 0}) {
			t.Errorf("ping with id %s answered as %+v", id, got)
		}
	}
}

func TestE2EErrorCodes(t *testing.T) {
	s := startBare(t)
	s.send(`{"jsonrpc":"2.0","id":"early","method":"tools/list"}`)
	if got := summarize(s.recvRaw()); got != (reply{`"early"`, -32600}) {
		t.Fatalf("tools/list before initialize: %+v", got)
	}
	s.send(e2eInit)
	s.recvRaw()
	s.send(e2eInitialized)
	cases := []struct {
		line string
		want reply
	}{
		{`{"jsonrpc":"2.0","id":5,"method":7}`, reply{"5", -32600}},
		{`{"jsonrpc":"2.0","id":6,"method":"ping",}`, reply{"6", -32700}},
		{`{"id":7,"method":"ping"}`, reply{"7", -32600}},
		{`{"jsonrpc":"2.0","id":8,"method":"no/such"}`, reply{"8", -32601}},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"no_such_tool"}}`, reply{"9", -32602}},
		{`{"jsonrpc":"2.0","id":10,"method":"notifications/cancelled","params":{"requestId":10}}`, reply{"10", -32600}},
	}
	for _, c := range cases {
		s.send(c.line)
		if got := summarize(s.recvRaw()); got != c.want {
			t.Errorf("%s answered as %+v, want %+v", c.line, got, c.want)
		}
	}
}

// `printf … | wda mcp`: stdin ends right after the requests, and still each one is
// answered before the process exits 0.
func TestE2EPipedInputAllAnswered(t *testing.T) {
	lines := []string{e2eInit, e2eInitialized,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"four","method":"tools/call","params":{"name":"workflow_plan","arguments":{"task":"run the go tests"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"no/such"}`,
	}
	cmd := exec.Command(wdaBin, "mcp")
	cmd.Env = append(os.Environ(), "WINDOWS_DEV_AGENT_DATA_DIR="+t.TempDir(), "WINDOWS_DEV_AGENT_PROJECT_DIR="+repoRoot(t))
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("wda mcp: %v", err)
	}
	got := map[reply]bool{}
	for _, l := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("stdout carried a non-JSON line: %q", l)
		}
		got[summarize(m)] = true
	}
	want := map[reply]bool{{"0", 0}: true, {"2", 0}: true, {"3.5", 0}: true, {`"four"`, 0}: true, {"5", -32601}: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("replies (-want +got):\n%s\nstdout:\n%s", diff, out)
	}
}
