package remote

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

const (
	tokA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	tokB = "Bb-._~+/0123456789Bb-._~+/0123456789xy=="
)

func TestParseTokens(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		in    string
		names []string
		err   string
	}{
		{"two with comments", "# ci tokens\n\nci-agent " + tokA + "\r\n  laptop.me\t" + tokB + "\n", []string{"ci-agent", "laptop.me"}, ""},
		{"empty", "# nothing\n", nil, "no tokens"},
		{"one field", "ci-agent\n", nil, "line 1: want NAME TOKEN"},
		{"three fields", "a " + tokA + " x\n", nil, "line 1: want NAME TOKEN"},
		{"short token", "a abc\n", nil, "line 1 (a): token must be at least 32"},
		{"bad token char", "a " + tokA + "!\n", nil, "token must be"},
		{"bad name", "a,b " + tokA + "\n", nil, "line 1: name must be"},
		{"duplicate name", "a " + tokA + "\na " + tokB + "\n", nil, "line 2: name a appears twice"},
		{"duplicate token", "a " + tokA + "\nb " + tokA + "\n", nil, "line 2 (b): the same token is given twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts, err := ParseTokens([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				if strings.Contains(err.Error(), tokA) {
					t.Fatalf("the error repeats a token: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, x := range ts {
				got = append(got, x.Name)
			}
			if strings.Join(got, ",") != strings.Join(tc.names, ",") {
				t.Fatalf("names = %v, want %v", got, tc.names)
			}
		})
	}
}

// TestVerify: the right token yields its name, never the token; a wrong, empty or
// prefix token is refused with auth.ErrInvalidToken (the SDK's 401).
func TestVerify(t *testing.T) {
	t.Parallel()
	ts, err := ParseTokens([]byte("ci " + tokA + "\nme " + tokB + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	for tok, want := range map[string]string{tokA: "ci", tokB: "me", "": "", tokA[:31]: "", tokA + "a": "", strings.ToUpper(tokA): ""} {
		ti, err := ts.Verify(context.Background(), tok, nil)
		if want == "" {
			if !errors.Is(err, auth.ErrInvalidToken) || ti != nil {
				t.Errorf("Verify(%q) = %v, %v; want ErrInvalidToken", tok, ti, err)
			}
			continue
		}
		if err != nil || ti.UserID != want {
			t.Errorf("Verify(%q) = %v, %v; want %s", tok, ti, err, want)
		}
	}
}

func TestLoadTokenFileNotRegular(t *testing.T) {
	t.Parallel()
	if _, err := LoadTokenFile(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a folder: err = %v", err)
	}
	if _, err := LoadTokenFile(filepath.Join(t.TempDir(), "none")); err == nil || !strings.HasPrefix(err.Error(), "--token-file:") {
		t.Fatalf("missing: err = %v", err)
	}
}

func FuzzParseTokens(f *testing.F) {
	for _, s := range []string{"ci " + tokA + "\n", "# x\n\n", "a b c\n", "a " + tokA + "\na " + tokA, "\xff " + tokB} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := ParseTokens(data)
		if err != nil {
			if ts != nil {
				t.Fatal("tokens with an error")
			}
			return
		}
		seen := map[string]bool{}
		for _, x := range ts {
			if !tokenName(x.Name) || seen[x.Name] {
				t.Fatalf("bad or repeated name %q", x.Name)
			}
			seen[x.Name] = true
		}
	})
}
