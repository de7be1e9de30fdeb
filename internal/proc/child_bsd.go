//go:build !windows && !linux

package proc

// reserveBeforeReap is false where x/sys offers no waitid: the group is swept right
// after the leader is reaped.
const reserveBeforeReap = false

func waitExitNoReap(int) {}
