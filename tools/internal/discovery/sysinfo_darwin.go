package discovery

import "golang.org/x/sys/unix"

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
	return System{
		OSName:                "macOS " + ver,
		OSVersion:             ver,
		OSBuild:               build,
		Architecture:          bits(machine),
		ProcessorCount:        int(pkgs),
		ProcessorName:         cpu,
		TotalPhysicalMemoryGB: gib(mem),
	}, nil
}
