// Package config decides, once per process and in one place, what every command needs
// before it serves: the host, the data directory, the project directory and the
// capability catalog in force. `wda mcp`, `wda hook` (and wda-hook) and the human
// commands all resolve through it, so a hook and the server of one session never
// disagree about where the audit log is.
//
// It must stay light (the hook binary links it): no MCP SDK, no tool packages, no
// file system work beyond reading the environment.
package config
