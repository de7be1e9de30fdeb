package wda

// dist/ holds the generated Claude Code and Codex payloads; gen's freshness test fails
// when they differ from a fresh render.
//go:generate go run ./gen/cmd/gendist -out dist
