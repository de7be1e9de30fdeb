package wda

// Version is the one version string of the server, the plugin manifests and the CLI.
const Version = "0.5.0"

// ServerName is the MCP implementation name every host sees.
const ServerName = "windows-dev-agent"
