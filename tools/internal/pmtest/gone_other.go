//go:build unix && !linux

package pmtest

import "time"

// Gone reports whether pid has ended within d. Without pidfds the state is looked at
// every few milliseconds until the deadline.
func Gone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for Alive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}
