package bad

import (
	"os"
	"syscall"
	sys "syscall"
)

func calls() {
	os.StartProcess("x", nil, nil)
	sys.ForkExec("x", nil, nil)
	syscall.Exec("x", nil, nil)
}
