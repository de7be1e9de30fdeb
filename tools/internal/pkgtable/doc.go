// Package pkgtable reads the fixed-width text tables that package managers print for
// people: WinGet's search and list tables (a header line, one unbroken line of '-', then
// rows padded to the column widths) and PowerShell's Format-Table as Scoop prints it (a
// header line and one '-' run per column).
//
// It owns three things: normalising captured console text (ANSI/VT sequences removed,
// carriage-return overwrites collapsed to what the final write left, spinner and
// progress-bar residue ignored), measuring display width the way WinGet does (one cell
// per grapheme cluster, two for East Asian Wide and Fullwidth characters), and locating
// columns from the header and separator lines so that column widths of any size work.
//
// It must never invent data: a cell is always text copied verbatim from the input.
// A row that does not line up with the columns (a character, or half of a wide
// character, sitting on a column boundary) is rejected and counted, not re-split by
// guesswork. Search maps a table to package matches and drops (and counts) every row
// whose id is empty, contains whitespace, or was truncated by the manager (ends in "…"
// or the older "..."), because a truncated id is not an id: installing by it would pick
// a different package or none. Names and versions may be truncated; they are flagged.
//
// It never runs anything and never writes anywhere.
package pkgtable
