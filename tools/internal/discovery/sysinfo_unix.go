//go:build !windows

package discovery

import "strings"

// bits maps a machine name to the OS architecture string the snapshot uses.
func bits(machine string) string {
	if strings.Contains(machine, "64") || machine == "s390x" {
		return "64-bit"
	}
	return "32-bit"
}
