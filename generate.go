package wda

// dist/ holds the generated payloads of every host (docs/release.md); gen's freshness test fails
// when they differ from a fresh render.
//go:generate go run ./gen/cmd/gendist -out dist
