//go:build !windows

package main

import "io"

// serveAsService: only Windows has a service control manager.
func serveAsService([]string, io.Writer, func(string) string) (bool, int) { return false, 0 }
