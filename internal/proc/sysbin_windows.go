//go:build windows

package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// SystemBinary locates name (a file or a sub-path such as
// WindowsPowerShell\v1.0\powershell.exe) below the Windows directory reported by
// GetWindowsDirectoryW, never via PATH. A 32-bit process on 64-bit Windows
// (PROCESSOR_ARCHITEW6432 set) tries Sysnative first so it gets the native binary.
// When nothing exists the error wraps fs.ErrNotExist and the System32 candidate is
// still returned for display.
func SystemBinary(name string) (string, error) {
	if err := checkSystemName(name); err != nil {
		return "", err
	}
	win, err := windows.GetWindowsDirectory()
	if err != nil {
		return "", fmt.Errorf("GetWindowsDirectoryW: %w", err)
	}
	var dirs []string
	if os.Getenv("PROCESSOR_ARCHITEW6432") != "" {
		dirs = append(dirs, filepath.Join(win, "Sysnative"))
	}
	dirs = append(dirs, filepath.Join(win, "System32"))
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	last := filepath.Join(dirs[len(dirs)-1], name)
	return last, fmt.Errorf("system binary not found: %s: %w", last, os.ErrNotExist)
}

// checkSystemName keeps name below the system directory: relative, no drive, no "..".
func checkSystemName(name string) error {
	if name == "" || filepath.IsAbs(name) || filepath.VolumeName(name) != "" || strings.HasPrefix(name, `\`) || strings.HasPrefix(name, "/") {
		return fmt.Errorf("system binary name must be a relative path below the system directory: %q", name)
	}
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '\\' || r == '/' }) {
		if part == ".." || part == "." {
			return fmt.Errorf("system binary name must not contain %q: %q", part, name)
		}
	}
	return nil
}
