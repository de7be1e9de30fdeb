//go:build !race

package stdio_test

// floodScale: the floods run at full size without the race detector.
const floodScale = 1
