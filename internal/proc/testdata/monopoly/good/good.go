package good

import (
	"os"
	"syscall"
)

// Names that merely look alike are fine.
type T struct{ StartProcess func() }

func ok(t T) {
	t.StartProcess()
	_ = os.Getpid()
	_ = syscall.Getpid()
}
