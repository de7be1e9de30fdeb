package auditexport

import sdklog "go.opentelemetry.io/otel/sdk/log"

type (
	sdkExporter  = sdklog.Exporter
	sdklogRecord = sdklog.Record
)
