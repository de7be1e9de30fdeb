// Package config decides, once per process, what every command needs before it serves:
// the host adapter by name and the data directory in force.
package config
