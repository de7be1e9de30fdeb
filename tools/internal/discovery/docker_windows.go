package discovery

import (
	"errors"
	"fmt"

	"golang.org/x/sys/windows"
)

// dockerDefaultHost is the engine address the docker CLI uses on Windows when nothing
// names another (Docker Desktop and the Windows engine both serve it).
const dockerDefaultHost = "npipe:////./pipe/docker_engine"

// dockerPipe connects to the engine's local named pipe and closes it at once
// (docs/discovery.md, "Docker engine"): a pipe that accepts a client, or whose
// instances are all busy, has a server behind it, so the engine is running; no such
// pipe is an established false; anything else (access denied) is not established. No
// request is written: a synchronous pipe read has no deadline, and a connection the
// server accepted already answers the question. The client asks for identification-level
// impersonation only, so a server that is not the engine cannot act as this user.
func dockerPipe(name string) (*bool, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, nil
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
		windows.SECURITY_SQOS_PRESENT|windows.SECURITY_IDENTIFICATION, 0)
	switch {
	case err == nil:
		_ = windows.CloseHandle(h) // nothing was written: a close error changes no fact
		return True(), nil
	case errors.Is(err, windows.ERROR_PIPE_BUSY):
		return True(), nil
	case errors.Is(err, windows.ERROR_FILE_NOT_FOUND), errors.Is(err, windows.ERROR_PATH_NOT_FOUND):
		return False(), nil
	}
	return nil, fmt.Errorf("%w: %s", errDockerUnknown, cause(err))
}
