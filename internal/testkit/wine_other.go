//go:build !windows

package testkit

// UnderWine is false off Windows: Wine runs only Windows binaries (wine_windows.go).
func UnderWine() bool { return false }
