// Package hiddentext finds text a person reading an agent file (a skill, agent, command
// or instructions file) does not see but a model does: Unicode tag characters,
// bidirectional controls, runs of zero-width characters and, in markdown, HTML comments
// that address the agent or give it orders (docs/tools/ecosystem_scan.md, "Hidden text").
//
// It owns the detectors and their fixed wording. It reads bytes it is given and never
// opens a file; a finding says where and how much, never what the hidden text says: no
// decoded tag text, no comment text, nothing of the input but counts and positions.
package hiddentext
