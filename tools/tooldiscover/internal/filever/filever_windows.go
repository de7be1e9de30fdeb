//go:build windows

package filever

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"unsafe"

	"golang.org/x/sys/windows"
)

// version.dll from the system directory only (NewLazySystemDLL uses
// LOAD_LIBRARY_SEARCH_SYSTEM32), so a planted version.dll beside the binary or in the
// cwd is never loaded.
var (
	modversion     = windows.NewLazySystemDLL("version.dll")
	procByHandle   = modversion.NewProc("GetFileVersionInfoByHandle")
	procInfoSizeW  = modversion.NewProc("GetFileVersionInfoSizeW")
	procInfoW      = modversion.NewProc("GetFileVersionInfoW")
	procQueryValue = modversion.NewProc("VerQueryValueW")
)

const fixedSignature = 0xFEEF04BD

// Version returns the fixed file version of the executable at the absolute path, as
// a.b.c.d.
func Version(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("filever: path must be absolute: %s", path)
	}
	p16, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return "", fmt.Errorf("filever: %s: %w", path, err)
	}
	// Share-read only: competing writes, renames and deletes fail while we read.
	h, err := windows.CreateFile(p16, windows.GENERIC_READ, windows.FILE_SHARE_READ, nil,
		windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return "", fmt.Errorf("filever: open %s: %w", path, err)
	}
	defer windows.CloseHandle(h)
	block, free, err := versionBlock(h, p16)
	if err != nil {
		return "", fmt.Errorf("filever: %s: %w", path, err)
	}
	defer free()
	if err := procQueryValue.Find(); err != nil {
		return "", fmt.Errorf("filever: %w", err)
	}
	root, _ := windows.UTF16PtrFromString(`\`)
	var fixed *windows.VS_FIXEDFILEINFO
	var n uint32
	r, _, _ := procQueryValue.Call(uintptr(block), uintptr(unsafe.Pointer(root)),
		uintptr(unsafe.Pointer(&fixed)), uintptr(unsafe.Pointer(&n)))
	if r == 0 || fixed == nil || uintptr(n) < unsafe.Sizeof(*fixed) || fixed.Signature != fixedSignature {
		return "", fmt.Errorf("filever: %s has no fixed file version", path)
	}
	return format(fixed.FileVersionMS, fixed.FileVersionLS)
}

// versionBlock reads the version resource through h, or by path while h pins the file
// when version.dll cannot read by handle. free releases the block.
func versionBlock(h windows.Handle, p16 *uint16) (unsafe.Pointer, func(), error) {
	if procByHandle.Find() == nil {
		var data unsafe.Pointer // allocated by version.dll, released with LocalFree
		var n uint32
		r, _, callErr := procByHandle.Call(0, uintptr(h), uintptr(unsafe.Pointer(&data)), uintptr(unsafe.Pointer(&n)))
		if r != 0 && data != nil {
			return data, func() { windows.LocalFree(windows.Handle(uintptr(data))) }, nil
		}
		if !errors.Is(callErr, windows.ERROR_CALL_NOT_IMPLEMENTED) {
			return nil, nil, fmt.Errorf("GetFileVersionInfoByHandle: %w", callErr)
		}
	}
	if err := procInfoSizeW.Find(); err != nil {
		return nil, nil, err
	}
	if err := procInfoW.Find(); err != nil {
		return nil, nil, err
	}
	var zero uint32
	size, _, callErr := procInfoSizeW.Call(uintptr(unsafe.Pointer(p16)), uintptr(unsafe.Pointer(&zero)))
	if size == 0 {
		return nil, nil, fmt.Errorf("no version resource: %w", callErr)
	}
	buf := make([]byte, size)
	r, _, callErr := procInfoW.Call(uintptr(unsafe.Pointer(p16)), 0, size, uintptr(unsafe.Pointer(&buf[0])))
	if r == 0 {
		return nil, nil, fmt.Errorf("GetFileVersionInfoW: %w", callErr)
	}
	return unsafe.Pointer(&buf[0]), func() { runtime.KeepAlive(buf) }, nil
}
