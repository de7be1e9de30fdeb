//go:build !unix

package projectscan

// openFlags: no extra flag; a file in a Windows directory cannot be a FIFO.
const openFlags = 0
