package auditexport

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     map[string]string
		pol     *Policy
		want    Config
		wantErr string
	}{
		{name: "off by default", env: nil, want: Config{}},
		{name: "headers alone do not switch it on", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=b"}, want: Config{}},
		{name: "shared endpoint gets the logs path", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"},
			want: Config{Endpoint: "http://127.0.0.1:4318/v1/logs", Protocol: ProtocolHTTP, Timeout: DefaultTimeout, Source: "environment"}},
		{name: "logs endpoint as given, logs variables first", env: map[string]string{
			"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:4318", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT": "https://b/custom",
			"OTEL_EXPORTER_OTLP_HEADERS": "x=1", "OTEL_EXPORTER_OTLP_LOGS_HEADERS": "Authorization=Bearer%20t, y = 2",
			"OTEL_EXPORTER_OTLP_TIMEOUT": "100", "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT": "2500"},
			want: Config{Endpoint: "https://b/custom", Protocol: ProtocolHTTP, Timeout: 2500 * time.Millisecond, Source: "environment",
				Headers: map[string]string{"authorization": "Bearer t", "y": "2"}}},
		{name: "grpc endpoint as given", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
			want: Config{Endpoint: "http://c:4317", Protocol: ProtocolGRPC, Timeout: DefaultTimeout, Source: "environment"}},
		{name: "sdk disabled", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SDK_DISABLED": "true"}, want: Config{}},
		{name: "http/json refused", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
			wantErr: "OTEL_EXPORTER_OTLP_PROTOCOL"},
		{name: "no scheme", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"}, wantErr: "OTEL_EXPORTER_OTLP_ENDPOINT: the URL must start"},
		{name: "credentials in URL", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://u:pw@c"}, wantErr: "user information"},
		{name: "bad timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT": "5s"},
			wantErr: "OTEL_EXPORTER_OTLP_LOGS_TIMEOUT"},
		{name: "bad header", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_EXPORTER_OTLP_HEADERS": "a=b,secretvalue"},
			wantErr: "OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value"},
		{name: "policy endpoint ignores the environment", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://evil:4318",
			"OTEL_EXPORTER_OTLP_HEADERS": "x=1", "OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_TIMEOUT": "1"},
			pol:  &Policy{Endpoint: "https://otel.example.com:4318", Headers: map[string]string{"authorization": "k"}},
			want: Config{Endpoint: "https://otel.example.com:4318/v1/logs", Protocol: ProtocolHTTP, Timeout: DefaultTimeout, Source: "policy", Headers: map[string]string{"authorization": "k"}}},
		{name: "policy grpc", pol: &Policy{Endpoint: "https://otel:4317", Protocol: ProtocolGRPC, Timeout: 5 * time.Second},
			want: Config{Endpoint: "https://otel:4317", Protocol: ProtocolGRPC, Timeout: 5 * time.Second, Source: "policy"}},
		{name: "policy without endpoint overrides fields", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4317", "OTEL_EXPORTER_OTLP_TIMEOUT": "1"},
			pol:  &Policy{Protocol: ProtocolGRPC, Timeout: 7 * time.Second},
			want: Config{Endpoint: "http://c:4317", Protocol: ProtocolGRPC, Timeout: 7 * time.Second, Source: "environment"}},
		{name: "bad policy endpoint", pol: &Policy{Endpoint: "otel:4317"}, wantErr: "policy audit.otlp.endpoint"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Resolve(env(tt.env), tt.pol)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "secretvalue") || strings.Contains(err.Error(), "pw") {
					t.Fatalf("the error repeats a secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParseHeaders: any input parses or is refused; a refusal never repeats the input,
// and what parses is printable and made of header names.
func FuzzParseHeaders(f *testing.F) {
	for _, s := range []string{"a=b", "Authorization=Bearer%20x,y=2", "a", "=b", "a=%zz", "a=b\x01", " k = v ,, "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHeaders(s)
		if err != nil {
			if len(s) >= 6 && strings.Contains(err.Error(), s) {
				t.Fatalf("error repeats the input: %v", err)
			}
			return
		}
		for k, v := range h {
			if !token(k) || k != strings.ToLower(k) {
				t.Fatalf("key %q", k)
			}
			for _, r := range v {
				if r < 0x20 && r != '\t' || r == 0x7f {
					t.Fatalf("control character in %q", v)
				}
			}
		}
	})
}
