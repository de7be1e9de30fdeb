package bad

import (
	. "os"
	_ "os/exec"
)

func dot() { StartProcess("x", nil, nil) }
