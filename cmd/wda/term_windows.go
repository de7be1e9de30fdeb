package main

import "golang.org/x/sys/windows"

// isTerminal reports whether fd is a console: only a console handle has a console
// mode. A pipe or file (redirected output, a mintty pipe) is not a terminal.
func isTerminal(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}

// terminalWidth is the console window's width in columns, 0 when unknown.
func terminalWidth(fd uintptr) int {
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(windows.Handle(fd), &info); err != nil {
		return 0
	}
	return int(info.Window.Right-info.Window.Left) + 1
}
