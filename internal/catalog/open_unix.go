//go:build unix

package catalog

import "syscall"

// openFlags: a FIFO named as the catalog must not block the open (a hook process
// would hang until the host's timeout); ReadFile then refuses it as not a file.
const openFlags = syscall.O_NONBLOCK
