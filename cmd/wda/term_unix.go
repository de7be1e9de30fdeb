//go:build linux || darwin

package main

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal: it answers the terminal-attributes
// request (ioctlReadTermios is TCGETS on Linux, TIOCGETA on macOS).
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), ioctlReadTermios)
	return err == nil
}

// terminalWidth is the terminal's width in columns, 0 when unknown.
func terminalWidth(fd uintptr) int {
	ws, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
