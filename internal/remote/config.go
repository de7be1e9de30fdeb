package remote

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Defaults of the bounds (docs/remote.md, "Limits").
const (
	DefaultMaxBodyBytes = 1 << 20 // 1 MiB: a tool call's arguments are a few KiB
	DefaultMaxSessions  = 16
	DefaultIdleTimeout  = 30 * time.Minute
	// DefaultMaxInFlight and DefaultMaxQueued bound one session's requests like the
	// stdio transport's (docs/transport.md, "Concurrency: work in flight and the queue"): 8 running, the rest waiting.
	DefaultMaxInFlight = 8
	DefaultMaxQueued   = 64
)

// Config is what `wda serve --http` was asked for.
type Config struct {
	Addr      string   // host:port to listen on
	NoAuth    bool     // serve without authorization (loopback only)
	TokenFile string   // the static bearer tokens: "name token" lines
	TLSCert   string   // certificate file (PEM)
	TLSKey    string   // key file (PEM)
	Origins   []string // browser origins allowed besides none
	// AuthServers are the authorization servers the protected-resource metadata names.
	AuthServers []string
	// PublicURL is the URL clients use for /mcp (default: from Addr and TLS).
	PublicURL    string
	MaxBodyBytes int64
	MaxSessions  int
	IdleTimeout  time.Duration
}

// Loopback reports whether addr's host is a loopback name or address. An empty host
// (":8080") listens on every interface, so it is not.
func Loopback(addr string) bool {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && ip.IsLoopback()
}

// Check validates c and fills the defaults. It refuses, naming the flag and the rule:
// a missing or malformed address, --no-auth off loopback or together with a token
// file, no token file when authorization is on, TLS off loopback without both files,
// one TLS file without the other, an origin or authorization server that is not an
// absolute URL.
func (c *Config) Check() error {
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return fmt.Errorf("--http: %q is not HOST:PORT: %v", c.Addr, err)
	}
	loop := Loopback(c.Addr)
	switch {
	case c.NoAuth && !loop:
		return fmt.Errorf("--no-auth: refused on %s: serving without authorization is allowed on a loopback address only (127.0.0.1, ::1, localhost)", c.Addr)
	case c.NoAuth && c.TokenFile != "":
		return errors.New("--no-auth: cannot be combined with --token-file")
	case !c.NoAuth && c.TokenFile == "":
		return errors.New("--token-file: required: every address requires authorization (--no-auth is for testing on loopback only)")
	case (c.TLSCert == "") != (c.TLSKey == ""):
		return errors.New("--tls-cert and --tls-key: give both or neither")
	case !loop && c.TLSCert == "":
		return fmt.Errorf("--tls-cert, --tls-key: required on %s: any address but loopback is served over TLS only", c.Addr)
	}
	for _, o := range c.Origins {
		if u, err := url.Parse(o); err != nil || u.Scheme == "" || u.Host == "" || u.Path != "" || u.RawQuery != "" {
			return fmt.Errorf("--allow-origin: %q is not an origin (scheme://host[:port])", o)
		}
	}
	for _, a := range c.AuthServers {
		if u, err := url.Parse(a); err != nil || u.Scheme != "https" || u.Host == "" {
			return fmt.Errorf("--auth-server: %q is not an https URL", a)
		}
	}
	if c.PublicURL == "" {
		scheme := "http"
		if c.TLSCert != "" {
			scheme = "https"
		}
		c.PublicURL = scheme + "://" + c.Addr + "/mcp"
	} else if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("--public-url: %q is not an http(s) URL", c.PublicURL)
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	return nil
}
