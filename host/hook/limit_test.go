package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/windows-dev-agent/wda/host/classify"
)

// filler streams n bytes of one byte value, so a test can hand a hook a stdin far
// larger than it keeps in memory.
type filler struct {
	b byte
	n int
}

func (f *filler) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), f.n)
	for i := range p[:k] {
		p[i] = f.b
	}
	f.n -= k
	return k, nil
}

// eofSeen records whether the hook read its stdin to the end: a hook that stops early
// makes the host's write fail, and Codex then counts the hook as failed.
type eofSeen struct {
	r   io.Reader
	eof bool
	n   int64
}

func (e *eofSeen) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	e.n += int64(n)
	if err == io.EOF {
		e.eof = true
	}
	return n, err
}

// bigStdin is a Bash PreToolUse event whose command is n bytes of 'a' (valid JSON).
func bigStdin(n int) *eofSeen {
	head := `{"session_id":"S","tool_use_id":"U","tool_name":"Bash","tool_input":{"command":"git status `
	return &eofSeen{r: io.MultiReader(strings.NewReader(head), &filler{'a', n}, strings.NewReader(`"}}`))}
}

func runReader(t testing.TB, stdin io.Reader, args ...string) (map[string]any, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Run(testSpecs(), append(args, "--data-dir", t.TempDir()), stdin, &out, &errb, func(string) string { return "" }); code != 0 {
		t.Fatalf("%v: exit %d", args, code)
	}
	return decodeOne(t, out.String()), errb.String()
}

func decision(m map[string]any) (string, string, string) {
	hso, _ := m["hookSpecificOutput"].(map[string]any)
	d, _ := hso["permissionDecision"].(string)
	r, _ := hso["permissionDecisionReason"].(string)
	c, _ := hso["additionalContext"].(string)
	return d, r, c
}

// Issue 15 item 8: a 32 MiB event is answered from its size alone: Claude asks, Codex
// denies, each naming the limit, and stdin is read to its end.
func TestPreToolUseOversizedEvent(t *testing.T) {
	t.Parallel()
	limit := strconv.Itoa(maxEventBytes)
	for _, c := range []struct {
		host, want, ctx string
		stdin           func() *eofSeen
	}{
		{"claude", "ask", "windows-dev-agent safety_class=approval-required", func() *eofSeen { return bigStdin(32 << 20) }},
		{"codex", "deny", "windows-dev-agent host=codex event_limit=exceeded", func() *eofSeen { return bigStdin(32 << 20) }},
		// Not JSON at all: still no decoding, the same answers.
		{"claude", "ask", "windows-dev-agent safety_class=approval-required", func() *eofSeen { return &eofSeen{r: &filler{'{', 32 << 20}} }},
		{"codex", "deny", "windows-dev-agent host=codex event_limit=exceeded", func() *eofSeen { return &eofSeen{r: &filler{'{', 32 << 20}} }},
		// One byte over.
		{"claude", "ask", "windows-dev-agent safety_class=approval-required", func() *eofSeen { return &eofSeen{r: &filler{' ', maxEventBytes + 1}} }},
	} {
		in := c.stdin()
		m, _ := runReader(t, in, c.host, "pre-tool-use")
		d, reason, ctx := decision(m)
		if d != c.want || ctx != c.ctx || !strings.Contains(reason, limit) {
			t.Errorf("%s: decision %q, context %q, reason %q; want %s naming %s", c.host, d, ctx, reason, c.want, limit)
		}
		if !in.eof {
			t.Errorf("%s: stdin not read to its end (%d bytes read)", c.host, in.n)
		}
	}
}

// The other hooks meet an oversized event with their unreadable-input answers, also
// without decoding and after draining stdin.
func TestOtherHooksOversizedEvent(t *testing.T) {
	t.Parallel()
	for _, h := range fuzzHooks {
		if h[1] == "pre-tool-use" {
			continue
		}
		in := bigStdin(4 << 20)
		m, _ := runReader(t, in, h...)
		if m != nil {
			t.Errorf("%v answered %v", h, m)
		}
		if !in.eof {
			t.Errorf("%v: stdin not read to its end", h)
		}
	}
}

// An event at the limit is decoded as usual; a command over the shell classifier's
// limit is approval-required (Claude asks, naming that limit; Codex leaves it to its
// own approval), unless it is forbidden.
func TestPreToolUseLongCommand(t *testing.T) {
	t.Parallel()
	event := func(cmd string) string {
		b, _ := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}})
		return string(b)
	}
	benign := "git status " + strings.Repeat("a", 200<<10)
	m, _ := runReader(t, strings.NewReader(event(benign)), "claude", "pre-tool-use")
	if d, reason, _ := decision(m); d != "ask" || !strings.Contains(reason, strconv.Itoa(classify.MaxCommandBytes)) {
		t.Errorf("claude long command: %q, %q", d, reason)
	}
	if m, _ := runReader(t, strings.NewReader(event(benign)), "codex", "pre-tool-use"); m != nil {
		t.Errorf("codex long command: %v", m)
	}
	bad := strings.Repeat("x ", 100<<10) + "format C:"
	for _, host := range []string{"claude", "codex"} {
		m, _ := runReader(t, strings.NewReader(event(bad)), host, "pre-tool-use")
		if d, reason, _ := decision(m); d != "deny" || !strings.Contains(reason, "formatting a drive") {
			t.Errorf("%s long forbidden command: %q, %q", host, d, reason)
		}
	}
	// Exactly at the event limit: decoded and classified.
	pad := maxEventBytes - len(event(""))
	m, _ = runReader(t, strings.NewReader(event(strings.Repeat(" ", pad))), "claude", "pre-tool-use")
	if d, reason, _ := decision(m); d != "ask" || !strings.Contains(reason, "longer than") {
		t.Errorf("event at the limit: %q, %q", d, reason)
	}
}

// The classifier's reason reaches the host's message.
func TestPreToolUseReasons(t *testing.T) {
	t.Parallel()
	ev := func(cmd string) io.Reader {
		b, _ := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}})
		return bytes.NewReader(b)
	}
	for _, c := range []struct{ host, cmd, decision, want string }{
		{"claude", "git diff --output=FILE", "ask", "--output=FILE"},
		{"claude", `go test -exec "sh -c 'rm -rf x'" ./...`, "ask", "-exec"},
		{"claude", "for''mat C:", "deny", "formatting a drive"},
		{"codex", "cmd /c disk^part", "deny", "diskpart"},
	} {
		m, _ := runReader(t, ev(c.cmd), c.host, "pre-tool-use")
		if d, reason, _ := decision(m); d != c.decision || !strings.Contains(reason, c.want) {
			t.Errorf("%s %q: %q, %q", c.host, c.cmd, d, reason)
		}
	}
}

// BenchmarkPreToolUseOversized shows what a 32 MiB event costs the Claude gate: the
// read of the first MiB and the drain of the rest, nothing decoded.
func BenchmarkPreToolUseOversized(b *testing.B) {
	args := []string{"claude", "pre-tool-use", "--data-dir", b.TempDir()}
	specs := testSpecs()
	b.SetBytes(32 << 20)
	for b.Loop() {
		Run(specs, args, bigStdin(32<<20), io.Discard, io.Discard, func(string) string { return "" })
	}
}
