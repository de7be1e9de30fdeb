package proc

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name      string
		limit     int
		writes    []string
		want      string
		truncated bool
	}{
		{"empty", 4, nil, "", false},
		{"under", 4, []string{"ab"}, "ab", false},
		{"exact fit in one write", 4, []string{"abcd"}, "abcd", false},
		{"exact fit in two writes", 4, []string{"ab", "cd"}, "abcd", false},
		{"overflow by one", 4, []string{"abcde"}, "bcde", true},
		{"overflow across writes", 4, []string{"abc", "def"}, "cdef", true},
		{"big write after small", 4, []string{"a", "wxyz"}, "wxyz", true},
		{"wraps around the ring", 4, []string{"abc", "de", "fg", "h"}, "efgh", true},
		{"zero limit truncates on first byte", 0, []string{"a"}, "", true},
		{"zero limit without bytes", 0, []string{""}, "", false},
		{"empty writes do not truncate", 2, []string{"ab", "", ""}, "ab", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTailBuffer(tc.limit)
			for _, w := range tc.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			got := struct {
				Data      string
				Truncated bool
			}{string(b.Bytes()), b.Truncated()}
			want := struct {
				Data      string
				Truncated bool
			}{tc.want, tc.truncated}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("tail (-want +got):\n%s", d)
			}
		})
	}
}

// FuzzTailBuffer checks the ring against the obvious model: keep everything, cut at the end.
func FuzzTailBuffer(f *testing.F) {
	f.Add(uint8(4), []byte("abcdefgh"), uint8(3))
	f.Add(uint8(0), []byte("x"), uint8(1))
	f.Add(uint8(8), []byte("12345678"), uint8(8))
	f.Fuzz(func(t *testing.T, limit uint8, data []byte, chunk uint8) {
		step := int(chunk%16) + 1
		b := newTailBuffer(int(limit))
		for i := 0; i < len(data); i += step {
			b.Write(data[i:min(i+step, len(data))])
		}
		want := data
		if len(want) > int(limit) {
			want = want[len(want)-int(limit):]
		}
		if got := b.Bytes(); !bytes.Equal(got, want) {
			t.Fatalf("Bytes() = %q, want %q", got, want)
		}
		if got, want := b.Truncated(), len(data) > int(limit); got != want {
			t.Fatalf("Truncated() = %v, want %v", got, want)
		}
	})
}

func TestDecodeText(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"ascii", []byte("hello"), "hello"},
		{"valid multibyte", []byte("ünï ✓"), "ünï ✓"},
		{"cut at the front: stray continuation bytes", []byte("\x9c\x93ok"), "\uFFFD\uFFFDok"},
		{"cut at the end: one replacement", []byte("ok\xe2\x9c"), "ok\uFFFD"},
		{"cut 4-byte sequence", []byte("a\xf0\x9f\x98"), "a\uFFFD"},
		{"invalid lead", []byte("a\xffb"), "a\uFFFDb"},
		{"surrogate encoding", []byte("\xed\xa0\x80"), "\uFFFD\uFFFD\uFFFD"},
		{"overlong", []byte("\xc0\xaf"), "\uFFFD\uFFFD"},
		{"truncated then ascii", []byte("\xe2\x82A"), "\uFFFDA"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeText(tc.in); got != tc.want {
				t.Errorf("decodeText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzDecodeText(f *testing.F) {
	for _, s := range []string{"", "abc", "\xe2\x9c", "\x80\x80", "ok\xf4\x90\x80\x80", "ü"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := decodeText(b)
		if !utf8.ValidString(got) {
			t.Fatalf("decodeText(%q) = %q is not valid UTF-8", b, got)
		}
		if utf8.Valid(b) && got != string(b) {
			t.Fatalf("valid input changed: %q -> %q", b, got)
		}
		// Every valid rune of the input survives in order; replacements only add U+FFFD.
		if stripped := strings.ReplaceAll(got, "\uFFFD", ""); len(stripped) > len(b) {
			t.Fatalf("output grew beyond input: %q -> %q", b, got)
		}
	})
}
