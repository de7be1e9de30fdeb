//go:build !unix

package main

// ignoreBrokenPipe: without SIGPIPE a write to a closed pipe already fails with an
// error, which the transport turns into a shutdown.
func ignoreBrokenPipe() {}
