//go:build unix

package proc

import "runtime"

func runtimeGOOS() string { return runtime.GOOS }
