package discovery

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// systemFacts on Linux: os-release, uname, /proc/cpuinfo and sysinfo(2).
func systemFacts() (System, error) {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return System{}, err
	}
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		return System{}, err
	}
	s := System{
		OSName:                osReleaseName(),
		OSVersion:             unix.ByteSliceToString(u.Release[:]),
		OSBuild:               unix.ByteSliceToString(u.Version[:]),
		Architecture:          bits(unix.ByteSliceToString(u.Machine[:])),
		TotalPhysicalMemoryGB: gib(uint64(si.Totalram) * uint64(si.Unit)),
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		s.LogicalProcessors, s.ProcessorPackages, s.ProcessorName = cpuinfo(b)
	}
	if s.LogicalProcessors == 0 {
		// No "processor" entries (an unreadable or unusual /proc): the CPUs this process
		// may run on are still a count of logical processors.
		s.LogicalProcessors = runtime.NumCPU()
	}
	return s, nil
}

func osReleaseName() string {
	b, err := os.ReadFile("/etc/os-release")
	if err != nil {
		return "Linux"
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PRETTY_NAME="); ok {
			if v = strings.Trim(v, `"'`); v != "" {
				return v
			}
		}
	}
	return "Linux"
}

// cpuinfo reads /proc/cpuinfo: logical processors (one "processor" entry each),
// processor packages (distinct "physical id"; 1 when the kernel reports none, as on
// many ARM systems) and the first model name ("model name", or ARM's "Model").
func cpuinfo(b []byte) (logical, packages int, name string) {
	ids := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "processor":
			logical++
		case "physical id":
			ids[strings.TrimSpace(v)] = true
		case "model name", "Model":
			if name == "" {
				name = strings.TrimSpace(v)
			}
		}
	}
	if len(ids) == 0 {
		return logical, 1, name
	}
	return logical, len(ids), name
}
