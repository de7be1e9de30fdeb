//go:build !windows

package contain

// caseInsensitive is false off Windows: even on macOS's usually case-insensitive
// volumes, a case mismatch fails closed rather than open.
const caseInsensitive = false
