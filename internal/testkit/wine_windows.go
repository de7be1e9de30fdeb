package testkit

import "golang.org/x/sys/windows"

// UnderWine reports whether the test runs under Wine (ntdll exports
// wine_get_version), whose file system lacks what some tests need: reparse points and
// the sharing rules that refuse renaming an open directory.
func UnderWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
