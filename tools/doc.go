// Package tools is the tool registry: a tool is data (name, order, description,
// annotations, typed In/Out, the project argument, its classification and a handler),
// registered by name from the init function of its own package under tools/.
//
// It holds the vocabulary every other layer shares (safety classes, validated argument
// maps, the common status fields, the reviewed-identity echo) and the per-call
// environment a handler receives. It must never import the MCP SDK or a tool package,
// never start a process and never write to stdout: the hook binary links it.
package tools
