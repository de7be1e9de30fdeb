package auditexport

import (
	"os"
	"reflect"
	"runtime"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/windows-dev-agent/wda/internal/audit"
)

// EventName names every exported audit record; GapEventName the record that reports
// records rotation discarded before they were exported (docs/telemetry.md).
const (
	EventName    = "wda.audit"
	GapEventName = "wda.audit.gap"
)

// ScopeName is the instrumentation scope of the exported records.
const ScopeName = "github.com/windows-dev-agent/wda/internal/audit"

// Resource describes this process: the service, its version, the host and the OS
// (docs/telemetry.md, "What is sent").
func Resource(version string) *resource.Resource {
	attrs := []attribute.KeyValue{
		attribute.String("service.name", "wda"),
		attribute.String("service.version", version),
		attribute.String("os.type", osType(runtime.GOOS)),
		attribute.String("host.arch", hostArch(runtime.GOARCH)),
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		attrs = append(attrs, attribute.String("host.name", h))
	}
	return resource.NewSchemaless(attrs...)
}

// osType is the semantic conventions' os.type of a GOOS.
func osType(goos string) string {
	if goos == "ios" {
		return "darwin"
	}
	return goos
}

// hostArch is the semantic conventions' host.arch of a GOARCH.
func hostArch(goarch string) string {
	switch goarch {
	case "386":
		return "x86"
	case "ppc64":
		return "ppc64"
	}
	return goarch
}

// fieldIndex lists audit.Record's fields with their JSON names once: every field of the
// type becomes an attribute of the same name, so a field added to the record is exported
// without a change here, and nothing the type has not got can be.
var fieldIndex = func() []recordField {
	t := reflect.TypeFor[audit.Record]()
	var out []recordField
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		out = append(out, recordField{index: i, name: name})
	}
	return out
}()

type recordField struct {
	index int
	name  string
}

// Attributes are r's fields as attributes: strings, booleans and numbers as they are;
// a field not established (null, empty) is left out.
func Attributes(r audit.Record) []attribute.KeyValue {
	v := reflect.ValueOf(r)
	out := make([]attribute.KeyValue, 0, len(fieldIndex))
	for _, f := range fieldIndex {
		fv := v.Field(f.index)
		if fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				continue
			}
			fv = fv.Elem()
		}
		switch fv.Kind() {
		case reflect.String:
			if s := fv.String(); s != "" {
				out = append(out, attribute.String(f.name, s))
			}
		case reflect.Bool:
			out = append(out, attribute.Bool(f.name, fv.Bool()))
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if n := fv.Int(); n != 0 { // schema_version: 0 is a legacy record's absent one
				out = append(out, attribute.Int64(f.name, n))
			}
		case reflect.Float32, reflect.Float64:
			out = append(out, attribute.Float64(f.name, fv.Float()))
		}
		// Any other kind (none today) is not exported: a composite could carry what the
		// record's scalar contract does not vouch for.
	}
	return out
}

// refusals are the result statuses that mean the call was refused (docs/audit.md,
// "Failures and refusals").
var refusals = map[string]bool{"invalid_input": true, "blocked": true, "stale_plan": true,
	"unknown_capability": true, "configuration_error": true}

// Severity is the record's severity (docs/telemetry.md): ERROR for a call that failed,
// WARN for one that was refused or denied or whose outcome is unknown, INFO otherwise.
func Severity(r audit.Record) otellog.Severity {
	switch {
	case r.ExecutionOutcome == audit.Failed, r.LifecycleSuccess != nil && !*r.LifecycleSuccess:
		return otellog.SeverityError
	case r.PermissionDenied != nil && *r.PermissionDenied, r.PermissionDecision == audit.DecisionDeny,
		r.ResultStatus != nil && refusals[*r.ResultStatus], r.ExecutionOutcome == audit.Unknown:
		return otellog.SeverityWarn
	}
	return otellog.SeverityInfo
}

// LogRecord is the OpenTelemetry log record of an audit record: its fields as
// attributes, its time as the timestamp, the event and tool as the body.
func LogRecord(r audit.Record, observed time.Time) otellog.Record {
	var out otellog.Record
	out.SetEventName(EventName)
	if ts, err := time.Parse(time.RFC3339Nano, r.TS); err == nil {
		out.SetTimestamp(ts)
	}
	out.SetObservedTimestamp(observed)
	sev := Severity(r)
	out.SetSeverity(sev)
	out.SetSeverityText(sev.String())
	body := r.LifecycleEvent
	if r.ToolName != "" {
		body = strings.TrimSpace(body + " " + r.ToolName)
	}
	out.SetBody(attribute.StringValue(body))
	out.AddAttributes(Attributes(r)...)
	return out
}

// gapRecord reports records that rotation discarded before they were exported.
func gapRecord(bytesAtLeast int64, observed time.Time) otellog.Record {
	var out otellog.Record
	out.SetEventName(GapEventName)
	out.SetTimestamp(observed)
	out.SetObservedTimestamp(observed)
	out.SetSeverity(otellog.SeverityWarn)
	out.SetSeverityText(otellog.SeverityWarn.String())
	out.SetBody(attribute.StringValue("audit records were discarded by rotation before they were exported"))
	out.AddAttributes(attribute.Int64("wda.audit.gap.bytes_at_least", bytesAtLeast))
	return out
}
