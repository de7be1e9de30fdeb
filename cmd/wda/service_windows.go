package main

import (
	"context"
	"io"

	"golang.org/x/sys/windows/svc"
)

// serveAsService runs `wda serve` under the service control manager when the process
// was started as a Windows service (sc.exe create / New-Service; docs/remote.md,
// "Running for a build agent account"): Stop and Shutdown end the server the way
// Ctrl+C does. handled is false in a console, where serveMain runs as usual.
func serveAsService(args []string, stderr io.Writer, getenv func(string) string) (handled bool, code int) {
	if is, err := svc.IsWindowsService(); err != nil || !is {
		return false, 0
	}
	h := &serviceHandler{args: args, stderr: stderr, getenv: getenv}
	if err := svc.Run("", h); err != nil { // the name is ignored for an own-process service
		return true, 1
	}
	return true, h.code
}

type serviceHandler struct {
	args   []string
	stderr io.Writer
	getenv func(string) string
	code   int
}

// Execute implements svc.Handler.
func (h *serviceHandler) Execute(_ []string, req <-chan svc.ChangeRequest, st chan<- svc.Status) (bool, uint32) {
	st <- svc.Status{State: svc.StartPending}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- runServe(ctx, h.args, h.stderr, h.getenv, listenTCP) }()
	st <- svc.Status{State: svc.Running, Accepts: svc.AcceptStop | svc.AcceptShutdown}
	for {
		select {
		case c := <-req:
			switch c.Cmd {
			case svc.Interrogate:
				st <- c.CurrentStatus
			case svc.Stop, svc.Shutdown:
				st <- svc.Status{State: svc.StopPending}
				cancel()
				h.code = <-done
				return false, 0
			}
		case h.code = <-done:
			// The server ended by itself (a refused configuration: exit 2): the
			// service-specific exit code says so in `sc.exe query`.
			return h.code != 0, uint32(h.code)
		}
	}
}
