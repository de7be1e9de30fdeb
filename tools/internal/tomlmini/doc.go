// Package tomlmini parses TOML documents into plain Go values, enough to read the
// [mcp_servers.*] tables of a Codex config.toml without a new module dependency.
//
// It understands the whole TOML 1.0 syntax a config file uses in practice: standard
// and array-of-tables headers, dotted and quoted keys, basic/literal/multi-line strings
// with escapes, integers (decimal, hex, octal, binary, underscores), floats, booleans,
// arrays spanning lines, inline tables and comments. Dates and times are kept as their
// source text. Values become string, int64, float64, bool, []any and map[string]any.
// It is deliberately lenient where leniency is harmless (an inline table may span lines,
// as in TOML 1.1) and strict where ambiguity would change meaning (duplicate keys and
// redefined tables are errors).
//
// It must never panic on any input, never recurse without a bound, and never put input
// text into an error message: errors are "line N: <fixed description>", because callers
// report them next to configs that may hold secrets.
package tomlmini
