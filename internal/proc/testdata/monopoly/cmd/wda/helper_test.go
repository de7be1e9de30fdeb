package main

import "os/exec"

// Not an e2e file: not excepted.
var _ = exec.Command
