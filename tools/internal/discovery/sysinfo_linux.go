package discovery

import (
	"bufio"
	"bytes"
	"os"
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
	s.ProcessorCount, s.ProcessorName = cpuinfo()
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

// cpuinfo counts processor packages (distinct "physical id"; 1 when the kernel does
// not report them) and returns the first model name.
func cpuinfo() (int, string) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return 0, ""
	}
	ids := map[string]bool{}
	name := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "physical id":
			ids[strings.TrimSpace(v)] = true
		case "model name", "Model":
			if name == "" {
				name = strings.TrimSpace(v)
			}
		}
	}
	if len(ids) == 0 {
		return 1, name
	}
	return len(ids), name
}
