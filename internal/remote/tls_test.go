package remote

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/windows-dev-agent/wda/host"
	"github.com/windows-dev-agent/wda/internal/testkit"
	"github.com/windows-dev-agent/wda/runtime"
	"github.com/windows-dev-agent/wda/tools"
)

// selfSigned writes a certificate for 127.0.0.1 and its key as PEM files and returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "wda test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:    x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestLoadTLS: a pair that cannot be used is refused before anything listens, naming
// both flags; no pair means plain HTTP (which Check allows on loopback only).
func TestLoadTLS(t *testing.T) {
	t.Parallel()
	dir := testkit.TempDir(t)
	cert, key, _ := selfSigned(t, dir)
	garbage := filepath.Join(dir, "garbage.pem")
	if err := os.WriteFile(garbage, []byte("not pem"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cert, key string
		wantErr         bool
	}{
		{"pair", cert, key, false},
		{"none", "", "", false},
		{"missing key file", cert, filepath.Join(dir, "absent.pem"), true},
		{"key is not PEM", cert, garbage, true},
		{"cert and key swapped", key, cert, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{TLSCert: tc.cert, TLSKey: tc.key}
			got, err := c.LoadTLS()
			if tc.wantErr {
				if err == nil || !strings.HasPrefix(err.Error(), "--tls-cert, --tls-key: cannot be used: ") {
					t.Fatalf("LoadTLS() = %v, want the error naming --tls-cert, --tls-key", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (tc.cert == "") || (got != nil && got.MinVersion != tls.VersionTLS12) {
				t.Fatalf("LoadTLS() = %+v", got)
			}
		})
	}
}

// TestServeTLS serves the pipeline over TLS end to end: a client that trusts the
// certificate lists and calls the tools with its token; a plain-HTTP request to the
// same port and a client that does not trust the certificate run nothing.
func TestServeTLS(t *testing.T) {
	t.Parallel()
	dir := testkit.TempDir(t)
	certFile, keyFile, pool := selfSigned(t, dir)
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	n := &calls{}
	reg := tools.New()
	reg.Register(probe(n))
	rh := host.NewRemote([]string{root}, func(string) string { return "" })
	srv := runtime.NewServer(reg, runtime.Options{Host: rh, Roots: rh.Roots(), DataDir: filepath.Join(dir, "data"), ProjectDir: root})
	ts, err := ParseTokens([]byte("ci-agent " + tokA + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Addr: ln.Addr().String(), TokenFile: "tokens", TLSCert: certFile, TLSKey: keyFile}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.PublicURL, "https://") {
		t.Fatalf("PublicURL = %q, want https", c.PublicURL)
	}
	tc, err := c.LoadTLS()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, NewHandler(srv, c, Options{Tokens: ts}), c, tc, time.Second) }()
	t.Cleanup(func() { cancel(); <-done })

	trusting := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	t.Cleanup(trusting.CloseIdleConnections)
	connect := func(rt http.RoundTripper) (*mcp.ClientSession, error) {
		tr := &mcp.StreamableClientTransport{Endpoint: "https://" + c.Addr + "/mcp", MaxRetries: -1, DisableStandaloneSSE: true,
			HTTPClient: &http.Client{Transport: rt}}
		return mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, tr, nil)
	}

	// A client that does not trust the certificate never gets to initialize.
	untrusting := &http.Transport{}
	t.Cleanup(untrusting.CloseIdleConnections)
	if cs, err := connect(tlsBearer{tokA, untrusting}); err == nil {
		cs.Close()
		t.Fatal("a client that does not trust the certificate connected")
	}
	// Plain HTTP to the TLS port: the request is not served.
	if resp, err := http.Post("http://"+c.Addr+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("plain HTTP to the TLS port: status %d, want 400 or a failed request", resp.StatusCode)
		}
	}

	cs, err := connect(tlsBearer{tokA, trusting})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "probe", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("probe over TLS: %v %+v", err, res)
	}
	if got := n.get(); got != 1 {
		t.Fatalf("probe ran %d times, want 1 (the refused clients ran nothing)", got)
	}
}

// tlsBearer adds the token over the given transport.
type tlsBearer struct {
	token string
	rt    http.RoundTripper
}

func (b tlsBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.rt.RoundTrip(r)
}
