package stdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestIDKey(t *testing.T) {
	same := [][]string{
		{`1`, `1.0`, `1e0`, `10e-1`, `0.1E1`, `001`},
		{`0`, `-0`, `0.000`, `0e99`, `-0.0e-7`},
		{`-25`, `-2.5e1`, `-250E-1`},
		{`9223372036854775808`, `9.223372036854775808e18`},
		{`"ab"`, `"a\u0062"`, `"\u0061\u0062"`},
		{`"😀"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`},
		{`"\n\/"`, `"\u000a/"`},
		{`1e99999999999999999999`}, // too large for int64: matched by its text
	}
	keys := map[string]string{}
	for _, group := range same {
		k0 := idKey([]byte(group[0]))
		for _, id := range group[1:] {
			if k := idKey([]byte(id)); k != k0 {
				t.Errorf("idKey(%s) = %q, idKey(%s) = %q: want equal", group[0], k0, id, k)
			}
		}
		if other, dup := keys[k0]; dup {
			t.Errorf("%s and %s share key %q", group[0], other, k0)
		}
		keys[k0] = group[0]
	}
	different := [][2]string{
		{`1`, `"1"`}, {`1`, `-1`}, {`1`, `1.5`}, {`"\ud800"`, `"\ud801"`}, {`"\ud800"`, `"\ufffd"`},
		{`"\ud800"`, `"\\ud800"`}, {`12`, `1.2e1000000000000000000`}, {`1e2`, `1e20`},
	}
	for _, d := range different {
		if idKey([]byte(d[0])) == idKey([]byte(d[1])) {
			t.Errorf("idKey(%s) == idKey(%s)", d[0], d[1])
		}
	}
}

func TestReadLine(t *testing.T) {
	type line struct {
		Text string
		Over bool
	}
	cases := []struct {
		name, in string
		want     []line
	}{
		{"lf and crlf", "a\nb\r\nc", []line{{"a", false}, {"b", false}, {"c", false}}},
		{"only one cr is the line ending", "a\r\r\n", []line{{"a\r", false}}},
		{"exactly the limit", "12345678\r\n", []line{{"12345678", false}}},
		{"one over", "123456789\n", []line{{"12345678", true}}},
		{"cr does not hide excess", "12345678\r\r\r\r\r\r\r\r\rx\nok\n", []line{{"12345678", true}, {"ok", false}}},
		{"long line drained", strings.Repeat("x", 200000) + "\nnext", []line{{strings.Repeat("x", 8), true}, {"next", false}}},
		{"empty", "\n\r\n", []line{{"", false}, {"", false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := bufio.NewReaderSize(strings.NewReader(c.in), 16)
			var got []line
			for {
				l, over, err := readLine(r, 8)
				if len(l) > 0 || over || err == nil {
					got = append(got, line{string(l), over})
				}
				if err != nil {
					if err != io.EOF {
						t.Fatal(err)
					}
					break
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Fatalf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzIDKey: two ids get one key exactly when they are the same JSON value. The
// oracle decodes strings with encoding/json (when no lone surrogate makes it lossy)
// and compares numbers as exact rationals (when the exponent is small enough).
func FuzzIDKey(f *testing.F) {
	for _, p := range [][2]string{{`1`, `1.0`}, {`"a"`, `"\u0061"`}, {`-0`, `0e5`}, {`1e3`, `1000`},
		{`"\ud800"`, `"\ud801"`}, {`2.5`, `25e-1`}, {`"x"`, `1`}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ka, okA := oracle(a)
		kb, okB := oracle(b)
		if !okA || !okB {
			return
		}
		if got, want := idKey([]byte(a)) == idKey([]byte(b)), ka == kb; got != want {
			t.Fatalf("idKey(%s) == idKey(%s) is %v; the values are equal: %v", a, b, got, want)
		}
	})
}

// oracle returns a comparable form of a string or number literal, or false when the
// literal is not one or the oracle cannot decide.
func oracle(lit string) (string, bool) {
	if !utf8.ValidString(lit) || !json.Valid([]byte(lit)) {
		return "", false
	}
	switch kindOf([]byte(lit)) {
	case idString:
		var s string
		if json.Unmarshal([]byte(lit), &s) != nil || strings.ContainsRune(s, utf8.RuneError) {
			return "", false
		}
		return "s" + s, true
	case idNumber:
		if i := strings.IndexAny(lit, "eE"); i >= 0 && len(lit)-i > 5 {
			return "", false
		}
		r, ok := new(big.Rat).SetString(lit)
		if !ok {
			return "", false
		}
		return "n" + r.RatString(), true
	}
	return "", false
}

func TestScanKeepsTheIDBeforeAnError(t *testing.T) {
	cases := []struct {
		line, id string
	}{
		{`{"id":5,"method":`, `5`},
		{`{"method":"x","id":"a\"b"} trailing`, `"a\"b"`},
		{`{"id":5,"id":6}`, ``},
		{`{"id":[1]}`, ``},
		{`{"x":[1,2,{"id":3}],"id":4}`, `4`},
		{`{"\u0069d":7}`, `7`},
		{`{"ID":7}`, ``},
		{`[{"id":1}]`, ``},
	}
	for _, c := range cases {
		if got := string(readableID(scan([]byte(c.line)))); got != c.id {
			t.Errorf("readableID(%s) = %q, want %q", c.line, got, c.id)
		}
	}
	// The member offsets point at the value's own bytes.
	line := []byte(`{ "jsonrpc" : "2.0" , "id" :  12.5e1 ,"method":"m"}`)
	m := scan(line).members["id"]
	if !bytes.Equal(line[m.start:m.end], []byte(`12.5e1`)) {
		t.Fatalf("offsets [%d,%d) = %q", m.start, m.end, line[m.start:m.end])
	}
}

// BenchmarkEnvelope is the per-line cost of reading the envelope (scan plus the
// splice and the SDK's decode a request gets), next to the SDK's decode alone and to
// the json.Unmarshal into any that the previous transport did on every line.
func BenchmarkEnvelope(b *testing.B) {
	for _, size := range []int{100, 200 << 10} {
		line := []byte(`{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"workflow_plan","arguments":{"task":"` +
			strings.Repeat("x", size) + `"}}}`)
		b.Run(fmt.Sprintf("scan+decode/%d", size), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				env := scan(line)
				m := env.members["id"]
				if _, err := jsonrpc.DecodeMessage(splice(line, m.start, m.end, []byte("1"))); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("sdk-decode/%d", size), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if _, err := jsonrpc.DecodeMessage(line); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("unmarshal-any/%d", size), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				var v any
				if err := json.Unmarshal(line, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
