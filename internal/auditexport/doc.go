// Package auditexport ships the shared audit log to an OpenTelemetry collector over OTLP
// (docs/telemetry.md): it reads what every process appended to the log (internal/audit)
// from a durable position, turns each record into one OpenTelemetry log record with the
// official SDK, and advances the position only once the collector acknowledged.
//
// Only the long-lived server imports it: it links the OpenTelemetry SDK, net/http and
// gRPC, whose package initialisation a hook process must never pay (cmd/wda-hook has a
// test that keeps it out). It must never send a field the audit record type does not
// have, never write to the audit log, and never send a record twice on a clean restart.
package auditexport
