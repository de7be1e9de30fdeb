package auditexport

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// receiver is an OTLP logs receiver built from the collector's own pdata module: it
// decodes what the exporter sent with plogotlp (HTTP) or is plogotlp's registered gRPC
// service, never a decoder of ours.
type receiver struct {
	t        *testing.T
	endpoint string
	protocol string
	down     atomic.Bool
	mu       sync.Mutex
	recs     []received
	raw      [][]byte // the request bodies as sent (HTTP) or re-encoded (gRPC)
	notify   chan struct{}
}

// received is one log record as the collector saw it.
type received struct {
	Resource  map[string]any
	Scope     string
	EventName string
	Severity  string
	SevNumber int32
	Time      time.Time
	Body      string
	Attrs     map[string]any
}

func newReceiver(t *testing.T, protocol string) *receiver {
	r := &receiver{t: t, protocol: protocol, notify: make(chan struct{}, 1)}
	switch protocol {
	case ProtocolHTTP:
		srv := httptest.NewServer(http.HandlerFunc(r.serveHTTP))
		t.Cleanup(srv.Close)
		r.endpoint = srv.URL + "/v1/logs"
	case ProtocolGRPC:
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s := grpc.NewServer()
		plogotlp.RegisterGRPCServer(s, &grpcService{r: r})
		go s.Serve(lis)
		t.Cleanup(s.Stop)
		r.endpoint = "http://" + lis.Addr().String()
	}
	return r
}

func (r *receiver) config() Config {
	return Config{Endpoint: r.endpoint, Protocol: r.protocol, Timeout: 5 * time.Second, Source: "environment",
		Headers: map[string]string{"authorization": "Bearer test-token-9f2c"}}
}

func (r *receiver) serveHTTP(w http.ResponseWriter, req *http.Request) {
	if r.down.Load() {
		http.Error(w, "collector down", http.StatusServiceUnavailable)
		return
	}
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if req.Header.Get("Authorization") != "Bearer test-token-9f2c" {
		http.Error(w, "no token", http.StatusUnauthorized)
		return
	}
	er := plogotlp.NewExportRequest()
	if err := er.UnmarshalProto(b); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.add(er.Logs(), b)
	resp, _ := plogotlp.NewExportResponse().MarshalProto()
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(resp)
}

type grpcService struct {
	plogotlp.UnimplementedGRPCServer
	r *receiver
}

func (g *grpcService) Export(_ context.Context, req plogotlp.ExportRequest) (plogotlp.ExportResponse, error) {
	if g.r.down.Load() {
		return plogotlp.NewExportResponse(), status.Error(codes.Unavailable, "collector down")
	}
	b, _ := req.MarshalProto()
	g.r.add(req.Logs(), b)
	return plogotlp.NewExportResponse(), nil
}

func (r *receiver) add(ld plog.Logs, raw []byte) {
	var out []received
	for i := range ld.ResourceLogs().Len() {
		rl := ld.ResourceLogs().At(i)
		res := rl.Resource().Attributes().AsRaw()
		for j := range rl.ScopeLogs().Len() {
			sl := rl.ScopeLogs().At(j)
			for k := range sl.LogRecords().Len() {
				lr := sl.LogRecords().At(k)
				out = append(out, received{Resource: res, Scope: sl.Scope().Name(), EventName: lr.EventName(),
					Severity: lr.SeverityText(), SevNumber: int32(lr.SeverityNumber()), Time: lr.Timestamp().AsTime(),
					Body: bodyString(lr.Body()), Attrs: lr.Attributes().AsRaw()})
			}
		}
	}
	r.mu.Lock()
	r.recs = append(r.recs, out...)
	r.raw = append(r.raw, bytes.Clone(raw))
	r.mu.Unlock()
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

func bodyString(v pcommon.Value) string {
	if v.Type() == pcommon.ValueTypeStr {
		return v.Str()
	}
	return v.AsString()
}

func (r *receiver) records() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.recs...)
}

// waitFor waits until the receiver holds at least n records (no sleeping: it wakes on
// each request), failing after a generous bound.
func (r *receiver) waitFor(n int) []received {
	r.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if got := r.records(); len(got) >= n {
			return got
		}
		select {
		case <-r.notify:
		case <-deadline:
			r.t.Fatalf("receiver has %d records, want %d", len(r.records()), n)
		}
	}
}
