package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseArgsPositions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src        string
		line, col  int
		msgContain string
	}{
		{"{\n  \"a\": 1,\n  \"b\": ]\n}", 3, 8, "invalid character ']'"},
		{"{\"é\": x}", 1, 7, "invalid character 'x'"},
		{"\r\n{\"a\":\r\n\"b\" \"c\"}", 3, 5, "after object key:value pair"},
		{"{} {}", 1, 4, "more text after the closing }"},
	}
	for _, c := range cases {
		_, err := parseArgs([]byte(c.src), "test")
		var ae *ArgsError
		if !errors.As(err, &ae) || ae.Line != c.line || ae.Column != c.col || !strings.Contains(ae.Error(), c.msgContain) {
			t.Errorf("%q: got %#v (%v), want line %d column %d with %q", c.src, ae, err, c.line, c.col, c.msgContain)
		}
	}
}

func TestEscapeWarnings(t *testing.T) {
	t.Parallel()
	if w := escapeWarnings([]byte(`{"cwd":"C:\temp","x":"D:\new\x","ok":"C:\\temp","u":"C:/t"}`)); len(w) != 2 ||
		!strings.Contains(w[0], "a tab") || !strings.Contains(w[1], "a newline") {
		t.Fatalf("%q", w)
	}
}

// FuzzParseArgs: any bytes give either one JSON object or an *ArgsError in plain
// words, never a panic and never a Go-internal message.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"capability":"test-go"}`, `'{"a":1}'`, `{a:1}`, "\xff\xfe{\x00}\x00", "\xef\xbb\xbf{}", `{"a":"C:\temp"}`, `[1]`, `{} x`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		raw, err := parseArgs(src, "fuzz")
		if err != nil {
			var ae *ArgsError
			if !errors.As(err, &ae) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "MarshalJSON") || strings.Contains(msg, "json: ") || !utf8.ValidString(msg) {
				t.Fatalf("message %q", msg)
			}
			return
		}
		var m map[string]any
		if json.Unmarshal(raw, &m) != nil || m == nil {
			t.Fatalf("accepted %q, not an object", raw)
		}
		_ = escapeWarnings(raw)
	})
}

// FuzzProgressText: a frame is never wider than asked and never holds a control
// character, whatever a tool printed.
func FuzzProgressText(f *testing.F) {
	f.Add("wda run test-go", "ok \x1b[2K\r\tdone", 20)
	f.Add("x", "日本語のテキスト", 5)
	f.Fuzz(func(t *testing.T, label, msg string, width int) {
		if width < 1 || width > 500 {
			return
		}
		text := progressText(strings.Map(printable, label), 0, msg, width)
		if utf8.RuneCountInString(text) > width {
			t.Fatalf("%q is wider than %d", text, width)
		}
		for _, r := range text {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("control character in %q", text)
			}
		}
	})
}
