//go:build unix

package main

import (
	"os/signal"
	"syscall"
)

// ignoreBrokenPipe makes a write to a stdout the client closed fail with EPIPE instead
// of killing the process, so the transport can cancel the calls in flight first.
func ignoreBrokenPipe() { signal.Ignore(syscall.SIGPIPE) }
