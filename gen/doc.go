// Package gen renders every file of the host payloads under dist/ from the tool
// registry, the host conventions and the embedded skills.
//
// Render is a pure function: the same registry gives the same bytes (stable key order,
// trailing newline, no timestamps), so `go generate ./...` and the freshness test agree.
// Names, the version, tool lists and hook matchers all come from the registry and the
// runtime constants; nothing here repeats them by hand.
//
// It never writes files itself (gen/cmd/gendist does) and never touches dist/*/bin,
// which holds build outputs.
package gen
