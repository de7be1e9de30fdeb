//go:build linux

package proc

import "bytes"

// shebangBuf is how many leading bytes of a file the kernel reads to find a #! line
// (BINPRM_BUF_SIZE).
const shebangBuf = 256

// shebang reads the #! line of a script's first bytes exactly as Linux's binfmt_script
// does (since Linux 5.1), so that a reviewed script can be started through the
// interpreter its reviewed bytes name (docs/process-runner.md §3.2) with the argv the
// kernel would have built. head is the file's first bytes (at most shebangBuf are
// looked at; a shorter file reads as if padded with NULs, as the kernel's buffer is).
// prefix is what the kernel puts before the script's path in the interpreter's argv:
// the interpreter as written, then the optional argument if there is one (it can be
// empty: "#!/bin/sh " followed by NULs passes ""). ok is false where the kernel would
// refuse the file as a script (ENOEXEC).
//
// The rules: the line ends at the first newline before any NUL; without one, the
// interpreter name must be followed by a space, tab or NUL inside the buffer (else it
// may have been cut off) and the line is the whole buffer but its last byte. Trailing
// spaces and tabs are dropped; the interpreter is the first run of characters that
// are not space, tab or NUL after leading spaces and tabs; what follows its first
// terminator, after spaces and tabs, up to the end of the line or a NUL, is one
// optional argument. Carriage returns are ordinary characters.
func shebang(head []byte) (prefix []string, ok bool) {
	var buf [shebangBuf]byte
	copy(buf[:], head)
	if buf[0] != '#' || buf[1] != '!' {
		return nil, false
	}
	const last = shebangBuf - 1
	end := -1
	for i := 0; i < shebangBuf && buf[i] != 0; i++ {
		if buf[i] == '\n' {
			end = i
			break
		}
	}
	if end < 0 {
		start := nextNonSpaceTab(&buf, 2, last)
		if start < 0 || nextTerminator(&buf, start, last) < 0 {
			return nil, false
		}
		end = last
	}
	for spaceTab(buf[end-1]) {
		end--
	}
	name := nextNonSpaceTab(&buf, 2, end)
	if name < 0 || name == end {
		return nil, false
	}
	argAt := -1
	sep := nextTerminator(&buf, name, end)
	if sep >= 0 && buf[sep] != 0 {
		argAt = nextNonSpaceTab(&buf, sep, end)
	}
	buf[end] = 0
	if argAt < 0 {
		return []string{cString(buf[name:])}, true
	}
	buf[sep] = 0
	return []string{cString(buf[name:]), cString(buf[argAt:])}, true
}

func spaceTab(c byte) bool { return c == ' ' || c == '\t' }

// nextNonSpaceTab is the index of the first byte in buf[first:last+1] that is not a
// space or tab, or -1.
func nextNonSpaceTab(buf *[shebangBuf]byte, first, last int) int {
	for i := first; i <= last; i++ {
		if !spaceTab(buf[i]) {
			return i
		}
	}
	return -1
}

// nextTerminator is the index of the first space, tab or NUL in buf[first:last+1], or
// -1.
func nextTerminator(buf *[shebangBuf]byte, first, last int) int {
	for i := first; i <= last; i++ {
		if spaceTab(buf[i]) || buf[i] == 0 {
			return i
		}
	}
	return -1
}

// cString is b up to its first NUL.
func cString(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}
