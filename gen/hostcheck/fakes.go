package hostcheck

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"time"
)

// maxRequest bounds what a stand-in reads of one request.
const maxRequest = 16 << 20

// loopback serves h on 127.0.0.1 until Close.
type loopback struct {
	URL string
	srv *http.Server
}

func serve(h http.Handler) (*loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = srv.Serve(ln) }() // returns when Close is called
	return &loopback{URL: "http://" + ln.Addr().String(), srv: srv}, nil
}

func (l *loopback) Close() error { return l.srv.Close() }

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func readJSON(r *http.Request, v any) error {
	return json.NewDecoder(io.LimitReader(r.Body, maxRequest)).Decode(v)
}
