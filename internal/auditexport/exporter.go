package auditexport

import (
	"context"
	"crypto/tls"
	"fmt"

	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"google.golang.org/grpc/credentials"
)

// NewExporter is the OTLP log exporter of c. The exporters' own retries are off: the
// Shipper retries with its backoff, and the records wait in the audit log meanwhile
// (docs/telemetry.md, "Failure behaviour").
//
// The exporters also read OTEL_EXPORTER_OTLP_* for what Config does not carry
// (certificates, compression). Under a policy the TLS settings are set here, so the
// environment cannot swap the trusted certificates of a managed export.
func NewExporter(ctx context.Context, c Config) (sdklog.Exporter, error) {
	switch c.Protocol {
	case ProtocolHTTP:
		opts := []otlploghttp.Option{otlploghttp.WithEndpointURL(c.Endpoint), otlploghttp.WithTimeout(c.Timeout),
			otlploghttp.WithRetry(otlploghttp.RetryConfig{Enabled: false})}
		if len(c.Headers) > 0 {
			opts = append(opts, otlploghttp.WithHeaders(c.Headers))
		}
		if c.Source == "policy" {
			opts = append(opts, otlploghttp.WithTLSClientConfig(&tls.Config{MinVersion: tls.VersionTLS12}))
		}
		return otlploghttp.New(ctx, opts...)
	case ProtocolGRPC:
		opts := []otlploggrpc.Option{otlploggrpc.WithEndpointURL(c.Endpoint), otlploggrpc.WithTimeout(c.Timeout),
			otlploggrpc.WithRetry(otlploggrpc.RetryConfig{Enabled: false})}
		if len(c.Headers) > 0 {
			opts = append(opts, otlploggrpc.WithHeaders(c.Headers))
		}
		if c.Source == "policy" && !insecureURL(c.Endpoint) {
			opts = append(opts, otlploggrpc.WithTLSCredentials(credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})))
		}
		return otlploggrpc.New(ctx, opts...)
	}
	return nil, fmt.Errorf("audit export: protocol %q is not http/protobuf or grpc", c.Protocol)
}

func insecureURL(u string) bool { return len(u) >= 7 && u[:7] == "http://" }
