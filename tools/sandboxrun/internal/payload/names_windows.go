//go:build windows

package payload

import (
	"fmt"
	"strings"
)

// foldCase: NTFS names are case-insensitive, so overlaps are compared case-folded.
const foldCase = true

// splitSeparators: Windows accepts both separators.
const splitSeparators = `/\`

// reserved are the DOS device names Win32 resolves to devices in any directory, with or
// without an extension.
var reserved = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
	"COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true, "COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"COM¹": true, "COM²": true, "COM³": true,
	"LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true, "LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true,
	"LPT¹": true, "LPT²": true, "LPT³": true,
}

// checkComponent refuses names that Win32 path parsing would rewrite (trailing dots and
// spaces are stripped), redirect to an alternate data stream (':') or to a device, or
// treat as wildcards: what would be staged could differ from what was reviewed.
func checkComponent(c string) error {
	if strings.ContainsAny(c, `:*?"<>|`) {
		return fmt.Errorf("payload path component is not a plain Windows file name: %s", c)
	}
	if strings.HasSuffix(c, ".") || strings.HasSuffix(c, " ") {
		return fmt.Errorf("payload path component ends with a dot or space, which Windows strips: %s", c)
	}
	base := strings.ToUpper(strings.TrimRight(c, " "))
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	if reserved[strings.TrimRight(base, " ")] {
		return fmt.Errorf("payload path component names a reserved Windows device: %s", c)
	}
	return nil
}
