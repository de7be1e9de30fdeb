//go:build !unix

package catalog

// openFlags: no extra flag; opening a Windows named pipe without a server fails at
// once rather than blocking.
const openFlags = 0
