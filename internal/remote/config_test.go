package remote

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestConfigCheck: TLS is required off loopback, --no-auth is refused off loopback,
// every address needs a token file, and malformed values name their flag.
func TestConfigCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		c    Config
		err  string // substring; "" means accepted
	}{
		{"loopback with token, no TLS", Config{Addr: "127.0.0.1:8080", TokenFile: "t"}, ""},
		{"ipv6 loopback no-auth", Config{Addr: "[::1]:8080", NoAuth: true}, ""},
		{"localhost no-auth", Config{Addr: "localhost:0", NoAuth: true}, ""},
		{"127/8 no-auth", Config{Addr: "127.1.2.3:1", NoAuth: true}, ""},
		{"no-auth off loopback", Config{Addr: "10.0.0.5:8080", NoAuth: true, TLSCert: "c", TLSKey: "k"}, "--no-auth: refused on 10.0.0.5:8080"},
		{"no-auth on all interfaces", Config{Addr: ":8080", NoAuth: true}, "--no-auth: refused"},
		{"no-auth on a name", Config{Addr: "build-box:8080", NoAuth: true}, "--no-auth: refused"},
		{"no-auth with a token file", Config{Addr: "127.0.0.1:1", NoAuth: true, TokenFile: "t"}, "cannot be combined"},
		{"no token file", Config{Addr: "127.0.0.1:1"}, "--token-file: required"},
		{"off loopback without TLS", Config{Addr: "0.0.0.0:8443", TokenFile: "t"}, "--tls-cert, --tls-key: required on 0.0.0.0:8443"},
		{"off loopback with TLS", Config{Addr: "0.0.0.0:8443", TokenFile: "t", TLSCert: "c", TLSKey: "k"}, ""},
		{"cert without key", Config{Addr: "127.0.0.1:1", TokenFile: "t", TLSCert: "c"}, "give both or neither"},
		{"not host:port", Config{Addr: "8080", TokenFile: "t"}, "--http: \"8080\" is not HOST:PORT"},
		{"origin with a path", Config{Addr: "127.0.0.1:1", NoAuth: true, Origins: []string{"https://a.example/x"}}, "--allow-origin"},
		{"origin ok", Config{Addr: "127.0.0.1:1", NoAuth: true, Origins: []string{"https://a.example:8443"}}, ""},
		{"auth server not https", Config{Addr: "127.0.0.1:1", TokenFile: "t", AuthServers: []string{"http://idp"}}, "--auth-server"},
		{"public url bad", Config{Addr: "127.0.0.1:1", TokenFile: "t", PublicURL: "ftp://x"}, "--public-url"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := tc.c
			err := c.Check()
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Check() = %v, want nil", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("Check() = %v, want an error containing %q", err, tc.err)
			}
		})
	}
}

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	c := Config{Addr: "0.0.0.0:8443", TokenFile: "t", TLSCert: "c", TLSKey: "k"}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	want := Config{Addr: "0.0.0.0:8443", TokenFile: "t", TLSCert: "c", TLSKey: "k", PublicURL: "https://0.0.0.0:8443/mcp",
		MaxBodyBytes: DefaultMaxBodyBytes, MaxSessions: DefaultMaxSessions, IdleTimeout: 30 * time.Minute}
	if d := cmp.Diff(want, c); d != "" {
		t.Fatalf("defaults (-want +got):\n%s", d)
	}
	if got := MetadataURL(c.PublicURL); got != "https://0.0.0.0:8443/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("MetadataURL = %q", got)
	}
}
