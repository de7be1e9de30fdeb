package remote

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// LoadTLS reads the certificate and key c names, so that a bad pair is refused before
// anything listens (docs/remote.md, "Flags"). It returns nil when c serves plain HTTP
// (loopback only: Check refuses that anywhere else).
func (c *Config) LoadTLS() (*tls.Config, error) {
	if c.TLSCert == "" {
		return nil, nil
	}
	pair, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert, --tls-key: cannot be used: %v", err)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{pair}}, nil
}

// Serve serves h on ln until ctx ends, over TLS when tc is not nil (from LoadTLS),
// then shuts down within grace. Idle sessions are swept every sweep interval.
func Serve(ctx context.Context, ln net.Listener, h *Handler, c Config, tc *tls.Config, grace time.Duration) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
		IdleTimeout:       2 * time.Minute,
	}
	if tc != nil {
		ln = tls.NewListener(ln, tc)
	}
	tick := time.NewTicker(sweepEvery(c.IdleTimeout))
	defer tick.Stop()
	done := make(chan error, 1)
	go func() {
		done <- srv.Serve(ln)
	}()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			h.Sweep()
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), grace)
			defer cancel()
			err := srv.Shutdown(sctx)
			if errors.Is(err, context.DeadlineExceeded) {
				err = srv.Close()
			}
			// Serve's own return after Shutdown is http.ErrServerClosed: not news.
			if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
				err = serr
			}
			return err
		}
	}
}

// sweepEvery is how often idle sessions are looked for: an eighth of the bound, at
// least every second, at most every minute.
func sweepEvery(idle time.Duration) time.Duration {
	return min(max(idle/8, time.Second), time.Minute)
}
