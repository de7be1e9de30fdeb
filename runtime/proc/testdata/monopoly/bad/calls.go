package bad

import (
	"os"
	sys "syscall"
	"syscall"
)

func calls() {
	os.StartProcess("x", nil, nil)
	sys.ForkExec("x", nil, nil)
	syscall.Exec("x", nil, nil)
}
