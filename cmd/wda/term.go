package main

import (
	"io"
	"os"
)

// ttyInfo is what the human commands know about where they write: whether they may
// ask a question (stdin and stderr are terminals), whether they may draw a live
// progress line on stderr, and how wide that line may be.
type ttyInfo struct {
	interactive bool
	live        bool
	width       int
}

// detectTTY looks at the process's own streams. A stream that is not an *os.File (a
// test's buffer, a pipe wrapped by a caller) is never a terminal.
func detectTTY(stdin io.Reader, stderr io.Writer) ttyInfo {
	in, inOK := stdin.(*os.File)
	errf, errOK := stderr.(*os.File)
	var t ttyInfo
	if errOK && isTerminal(errf.Fd()) {
		t.live = true
		t.width = terminalWidth(errf.Fd())
		t.interactive = inOK && isTerminal(in.Fd())
	}
	if t.width <= 0 {
		t.width = 80
	}
	return t
}
