package capability

import "strings"

// CommandLine renders argv the way the Microsoft C runtime parses a command line
// (the list2cmdline rules): arguments containing a space or tab, and empty arguments,
// are quoted; backslashes are literal unless they precede a double quote, where they
// are doubled and the quote escaped. It is for display only; nothing executes it.
func CommandLine(argv []string) string {
	var b strings.Builder
	for i, arg := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		quote := arg == "" || strings.ContainsAny(arg, " \t")
		if quote {
			b.WriteByte('"')
		}
		backslashes := 0
		for _, r := range arg {
			switch r {
			case '\\':
				backslashes++
				continue
			case '"':
				b.WriteString(strings.Repeat(`\`, backslashes*2))
				b.WriteString(`\"`)
			default:
				b.WriteString(strings.Repeat(`\`, backslashes))
				b.WriteRune(r)
			}
			backslashes = 0
		}
		b.WriteString(strings.Repeat(`\`, backslashes))
		if quote {
			// Trailing backslashes must be doubled so they do not escape the quote.
			b.WriteString(strings.Repeat(`\`, backslashes))
			b.WriteByte('"')
		}
	}
	return b.String()
}
