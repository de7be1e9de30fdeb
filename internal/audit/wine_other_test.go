//go:build !windows

package audit

func underWine() bool { return false }
