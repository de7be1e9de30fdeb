// Command otlpsink is a small OTLP logs receiver for trying the audit export by hand
// (docs/telemetry.md): it decodes each request with the collector's pdata module and
// prints one JSON line per log record (resource, severity, event name, body,
// attributes). Not shipped; it lives under testdata so `go build ./...` skips it.
//
//	go run ./internal/auditexport/testdata/otlpsink -http 127.0.0.1:4318 -grpc 127.0.0.1:4317
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"sync"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"google.golang.org/grpc"
)

var mu sync.Mutex

func print(ld plog.Logs) {
	mu.Lock()
	defer mu.Unlock()
	for i := range ld.ResourceLogs().Len() {
		rl := ld.ResourceLogs().At(i)
		for j := range rl.ScopeLogs().Len() {
			sl := rl.ScopeLogs().At(j)
			for k := range sl.LogRecords().Len() {
				lr := sl.LogRecords().At(k)
				b, _ := json.Marshal(map[string]any{"resource": rl.Resource().Attributes().AsRaw(), "scope": sl.Scope().Name(),
					"severity": lr.SeverityText(), "event_name": lr.EventName(), "time": lr.Timestamp().AsTime(),
					"body": lr.Body().AsString(), "attributes": lr.Attributes().AsRaw()})
				fmt.Println(string(b))
			}
		}
	}
}

type grpcLogs struct {
	plogotlp.UnimplementedGRPCServer
}

func (*grpcLogs) Export(_ context.Context, req plogotlp.ExportRequest) (plogotlp.ExportResponse, error) {
	print(req.Logs())
	return plogotlp.NewExportResponse(), nil
}

func main() {
	httpAddr := flag.String("http", "127.0.0.1:4318", "HTTP listen address (empty: none)")
	grpcAddr := flag.String("grpc", "", "gRPC listen address (empty: none)")
	flag.Parse()
	if *grpcAddr != "" {
		lis, err := net.Listen("tcp", *grpcAddr)
		if err != nil {
			log.Fatal(err)
		}
		s := grpc.NewServer()
		plogotlp.RegisterGRPCServer(s, &grpcLogs{})
		go s.Serve(lis)
	}
	if *httpAddr == "" {
		select {}
	}
	http.HandleFunc("/v1/logs", func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req := plogotlp.NewExportRequest()
		if err := req.UnmarshalProto(b); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		print(req.Logs())
		resp, _ := plogotlp.NewExportResponse().MarshalProto()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(resp)
	})
	fmt.Fprintln(os.Stderr, "otlpsink listening on", *httpAddr)
	log.Fatal(http.ListenAndServe(*httpAddr, nil))
}
