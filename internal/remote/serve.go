package remote

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"time"
)

// Serve serves h on ln until ctx ends, over TLS when c names the certificate files,
// then shuts down within grace. Idle sessions are swept every sweep interval.
func Serve(ctx context.Context, ln net.Listener, h *Handler, c Config, grace time.Duration) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
		IdleTimeout:       2 * time.Minute,
		TLSConfig:         &tls.Config{MinVersion: tls.VersionTLS12},
	}
	tick := time.NewTicker(sweepEvery(c.IdleTimeout))
	defer tick.Stop()
	done := make(chan error, 1)
	go func() {
		if c.TLSCert != "" {
			done <- srv.ServeTLS(ln, c.TLSCert, c.TLSKey)
		} else {
			done <- srv.Serve(ln)
		}
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
			<-done
			return err
		}
	}
}

// sweepEvery is how often idle sessions are looked for: an eighth of the bound, at
// least every second, at most every minute.
func sweepEvery(idle time.Duration) time.Duration {
	return min(max(idle/8, time.Second), time.Minute)
}
