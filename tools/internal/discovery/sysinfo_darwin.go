package discovery

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// systemFacts on macOS: sysctl.
func systemFacts() (System, error) {
	ver, err := unix.Sysctl("kern.osproductversion")
	if err != nil {
		return System{}, err
	}
	mem, err := unix.SysctlUint64("hw.memsize")
	if err != nil {
		return System{}, err
	}
	build, _ := unix.Sysctl("kern.osversion")
	machine, _ := unix.Sysctl("hw.machine")
	cpu, _ := unix.Sysctl("machdep.cpu.brand_string")
	pkgs, err := unix.SysctlUint32("hw.packages")
	if err != nil || pkgs == 0 {
		pkgs = 1
	}
	logical, err := unix.SysctlUint32("hw.logicalcpu")
	if err != nil || logical == 0 {
		logical = uint32(runtime.NumCPU())
	}
	return System{
		OSName:                "macOS " + ver,
		OSVersion:             ver,
		OSBuild:               build,
		Architecture:          bits(machine),
		LogicalProcessors:     int(logical),
		ProcessorPackages:     int(pkgs),
		ProcessorName:         cpu,
		TotalPhysicalMemoryGB: gib(mem),
	}, nil
}
