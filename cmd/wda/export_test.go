package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/auditexport"
	"github.com/windows-dev-agent/wda/internal/policy"
)

// TestExportPolicy: the policy's audit.otlp reaches the export; a policy that cannot be
// used switches the export off instead of letting the environment stand in.
func TestExportPolicy(t *testing.T) {
	t.Parallel()
	otlp := &policy.OTLP{Endpoint: "https://otel:4318", Protocol: "grpc", Headers: map[string]string{"a": "b"}, Timeout: 5 * time.Second}
	tests := []struct {
		name string
		st   *policy.State
		want *auditexport.Policy
	}{
		{"no state", nil, nil},
		{"no source", &policy.State{}, nil},
		{"no audit section", &policy.State{Source: "f", Policy: &policy.Policy{}}, nil},
		{"audit section", &policy.State{Source: "f", Policy: &policy.Policy{Audit: policy.Audit{OTLP: otlp}}},
			&auditexport.Policy{Endpoint: "https://otel:4318", Protocol: "grpc", Headers: map[string]string{"a": "b"}, Timeout: 5 * time.Second}},
		{"broken", &policy.State{Source: "f", Err: errors.New("line 1")}, brokenPolicy},
	}
	for _, tt := range tests {
		got := exportPolicy(tt.st)
		if tt.want == brokenPolicy {
			if got != brokenPolicy {
				t.Errorf("%s: %v, want the broken marker", tt.name, got)
			}
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	var stderr bytes.Buffer
	env := func(k string) string {
		if k == "OTEL_EXPORTER_OTLP_ENDPOINT" {
			return "http://127.0.0.1:1"
		}
		return ""
	}
	startAuditExport("wda mcp", t.TempDir(), env, brokenPolicy, &stderr)()
	if !strings.Contains(stderr.String(), "audit export off: the managed policy cannot be used") {
		t.Fatalf("stderr %q", stderr.String())
	}
}
