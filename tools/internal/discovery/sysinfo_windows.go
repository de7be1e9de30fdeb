package discovery

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	kernel32                           = windows.NewLazySystemDLL("kernel32.dll")
	procGlobalMemoryStatusEx           = kernel32.NewProc("GlobalMemoryStatusEx")
	procGetLogicalProcessorInformation = kernel32.NewProc("GetLogicalProcessorInformation")
)

// memoryStatusEx is MEMORYSTATUSEX.
type memoryStatusEx struct {
	length               uint32
	memoryLoad           uint32
	totalPhys            uint64
	availPhys            uint64
	totalPageFile        uint64
	availPageFile        uint64
	totalVirtual         uint64
	availVirtual         uint64
	availExtendedVirtual uint64
}

// logicalProcessorInfo is SYSTEM_LOGICAL_PROCESSOR_INFORMATION (the union is 16 bytes).
type logicalProcessorInfo struct {
	processorMask uintptr
	relationship  uint32
	union         [2]uint64
}

const relationProcessorPackage = 3

// systemFacts on Windows (docs/discovery.md, "Windows: the native producer"):
// RtlGetVersion for version and build (the registry ProductName says "Windows 10" on
// Windows 11, so the 11 label comes from the build), GlobalMemoryStatusEx for memory,
// logical processors of every processor group from GetActiveProcessorCount, processor
// packages from GetLogicalProcessorInformation and the name from the registry.
// The block is one unit: any failure is one error and the failure values.
func systemFacts(reg Registry) (System, error) {
	v := windows.RtlGetVersion()
	if v == nil || v.MajorVersion == 0 {
		return System{}, fmt.Errorf("RtlGetVersion returned no version")
	}
	var ms memoryStatusEx
	ms.length = uint32(unsafe.Sizeof(ms))
	if r, _, err := procGlobalMemoryStatusEx.Call(uintptr(unsafe.Pointer(&ms))); r == 0 {
		return System{}, fmt.Errorf("GlobalMemoryStatusEx: %w", err)
	}
	packages, err := processorPackages()
	if err != nil {
		return System{}, err
	}
	// ALL_PROCESSOR_GROUPS counts past 64 processors, where runtime.NumCPU and the
	// process affinity mask see only the current group.
	logical := int(windows.GetActiveProcessorCount(windows.ALL_PROCESSOR_GROUPS))
	if logical == 0 {
		return System{}, fmt.Errorf("GetActiveProcessorCount reported no processor")
	}
	cpu, _, err := reg.String(LocalMachine, keyCPU0, "ProcessorNameString")
	if err != nil {
		return System{}, fmt.Errorf("processor name: %w", err)
	}
	product, _, _ := reg.String(LocalMachine, keyCurrentVer, "ProductName") // cosmetic; a default follows
	build := strconv.FormatUint(uint64(v.BuildNumber), 10)
	return System{
		OSName:                caption(product, v),
		OSVersion:             fmt.Sprintf("%d.%d.%d", v.MajorVersion, v.MinorVersion, v.BuildNumber),
		OSBuild:               build,
		Architecture:          osArchitecture(),
		LogicalProcessors:     logical,
		ProcessorPackages:     packages,
		ProcessorName:         strings.TrimSpace(cpu),
		TotalPhysicalMemoryGB: gib(ms.totalPhys),
	}, nil
}

// caption builds a WMI-like caption ("Microsoft Windows 11 Pro"). The version label
// comes from RtlGetVersion (ProductName still says "Windows 10" on Windows 11, and a
// stale ProductName can name another release); only the edition comes from
// ProductName. Servers keep ProductName as is.
func caption(product string, v *windows.OsVersionInfoEx) string {
	p := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(product), "Microsoft "))
	const workstation = 1 // VER_NT_WORKSTATION
	if v.ProductType != workstation && p != "" {
		return "Microsoft " + p
	}
	label := ""
	switch {
	case v.MajorVersion == 10 && v.BuildNumber >= 22000:
		label = "11"
	case v.MajorVersion == 10:
		label = "10"
	case v.MajorVersion == 6 && v.MinorVersion == 3:
		label = "8.1"
	case v.MajorVersion == 6 && v.MinorVersion == 2:
		label = "8"
	case v.MajorVersion == 6 && v.MinorVersion == 1:
		label = "7"
	}
	edition := ""
	if rest, ok := strings.CutPrefix(p, "Windows "); ok {
		// Drop the release word ProductName carries ("10", "7", "8.1", ...).
		if i := strings.IndexByte(rest, ' '); i >= 0 {
			edition = strings.TrimSpace(rest[i+1:])
		}
	}
	c := "Microsoft Windows"
	if label != "" {
		c += " " + label
	}
	if edition != "" {
		c += " " + edition
	}
	return c
}

// osArchitecture is the OS (not process) architecture in WMI's OSArchitecture words.
func osArchitecture() string {
	var proc, native uint16
	if err := windows.IsWow64Process2(windows.CurrentProcess(), &proc, &native); err == nil {
		switch native {
		case 0x8664: // IMAGE_FILE_MACHINE_AMD64
			return "64-bit"
		case 0xAA64: // IMAGE_FILE_MACHINE_ARM64
			return "ARM 64-bit Processor"
		case 0x014c: // IMAGE_FILE_MACHINE_I386
			return "32-bit"
		}
	}
	switch runtime.GOARCH {
	case "arm64":
		return "ARM 64-bit Processor"
	case "386", "arm":
		return "32-bit"
	}
	return "64-bit"
}

// processorPackages counts processor packages (sockets), not logical processors
// (docs/discovery.md, "Windows: the native producer").
func processorPackages() (int, error) {
	var size uint32
	// The sizing call fails by design (ERROR_INSUFFICIENT_BUFFER); only size matters.
	_, _, _ = procGetLogicalProcessorInformation.Call(0, uintptr(unsafe.Pointer(&size)))
	if size == 0 {
		return 0, fmt.Errorf("GetLogicalProcessorInformation returned no size")
	}
	n := int(size) / int(unsafe.Sizeof(logicalProcessorInfo{}))
	buf := make([]logicalProcessorInfo, n+1)
	size = uint32(len(buf)) * uint32(unsafe.Sizeof(logicalProcessorInfo{}))
	if r, _, err := procGetLogicalProcessorInformation.Call(uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&size))); r == 0 {
		return 0, fmt.Errorf("GetLogicalProcessorInformation: %w", err)
	}
	count := 0
	for _, info := range buf[:int(size)/int(unsafe.Sizeof(logicalProcessorInfo{}))] {
		if info.relationship == relationProcessorPackage {
			count++
		}
	}
	if count == 0 {
		return 0, fmt.Errorf("GetLogicalProcessorInformation reported no processor package")
	}
	return count, nil
}
