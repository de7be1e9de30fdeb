// Package filever reads the fixed file version (VS_FIXEDFILEINFO) of a Windows
// executable without running it. tool_discover uses it for GUI programs (Visual
// Studio's devenv, JetBrains Rider and PyCharm) whose "--version" would open a window.
//
// On Windows the file is opened once, read access with share-read only, so it cannot be
// written, replaced or deleted while it is read; the version resource is read through
// that handle with GetFileVersionInfoByHandle, and only when version.dll lacks that
// export (or stubs it, as Wine does) through GetFileVersionInfoW on the same path while
// the handle keeps the file pinned. version.dll is always loaded from the system
// directory (LoadLibraryEx with LOAD_LIBRARY_SEARCH_SYSTEM32), never from the search
// path. Elsewhere Version returns an error naming the platform.
//
// It must never start a process, load the file as a module, or follow a relative path.
package filever

import "fmt"

// format renders a fixed file version as a.b.c.d. An all-zero version carries no
// information and is reported as absent.
func format(ms, ls uint32) (string, error) {
	if ms == 0 && ls == 0 {
		return "", fmt.Errorf("filever: the file version is 0.0.0.0 (not set)")
	}
	return fmt.Sprintf("%d.%d.%d.%d", ms>>16, ms&0xffff, ls>>16, ls&0xffff), nil
}
