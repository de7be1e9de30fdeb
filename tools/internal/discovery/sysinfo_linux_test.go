package discovery

import (
	"strings"
	"testing"
)

// TestCPUInfo: logical processors are the "processor" entries, packages the distinct
// "physical id"s (issue 22 §6: a two-vCPU VM has one package and two logical
// processors, and reported processor_count 1). The inputs are real /proc/cpuinfo
// excerpts (fields other than the ones read dropped).
func TestCPUInfo(t *testing.T) {
	t.Parallel()
	entry := func(proc, phys, model string) string {
		s := "processor\t: " + proc + "\n"
		if model != "" {
			s += "model name\t: " + model + "\n"
		}
		if phys != "" {
			s += "physical id\t: " + phys + "\nsiblings\t: 2\ncpu cores\t: 2\n"
		}
		return s + "\n"
	}
	tests := []struct {
		name, in          string
		logical, packages int
		model             string
	}{
		{"two vCPUs, one package (this VM)", entry("0", "0", "AMD EPYC") + entry("1", "0", "AMD EPYC"), 2, 1, "AMD EPYC"},
		{"two sockets, two threads each", entry("0", "0", "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz") + entry("1", "0", "x") +
			entry("2", "1", "x") + entry("3", "1", "x"), 4, 2, "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz"},
		{"ARM without physical id", entry("0", "", "") + entry("1", "", "") + entry("2", "", "") + entry("3", "", "") +
			"Hardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n", 4, 1, "Raspberry Pi 4 Model B Rev 1.4"},
		{"empty", "", 0, 1, ""},
	}
	for _, tt := range tests {
		logical, packages, model := cpuinfo([]byte(tt.in))
		if logical != tt.logical || packages != tt.packages || model != tt.model {
			t.Errorf("%s: cpuinfo = %d, %d, %q; want %d, %d, %q", tt.name, logical, packages, model, tt.logical, tt.packages, tt.model)
		}
	}
}

// FuzzCPUInfo: any /proc/cpuinfo text gives counts that are never negative, at least
// one package, and no more packages than entries naming one.
func FuzzCPUInfo(f *testing.F) {
	f.Add([]byte("processor\t: 0\nphysical id\t: 0\nprocessor\t: 1\nphysical id\t: 0\n"))
	f.Add([]byte("Model\t: x\nprocessor:\n:\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		logical, packages, _ := cpuinfo(b)
		if logical < 0 || packages < 1 || packages > max(1, strings.Count(string(b), "physical id")) {
			t.Fatalf("cpuinfo = %d, %d for %q", logical, packages, b)
		}
	})
}
