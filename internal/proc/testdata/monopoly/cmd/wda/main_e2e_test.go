package main

import "os/exec"

// The end-to-end exception: starting the built binary.
var _ = exec.Command
