package plan

import "strings"

// Command renders argv as one Windows command line for people to read (the quoting of
// Python's subprocess.list2cmdline, i.e. the MS C runtime rules). It is display only:
// nothing is ever run from it.
func Command(argv []string) string {
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
		for _, c := range arg {
			switch c {
			case '\\':
				backslashes++
			case '"':
				b.WriteString(strings.Repeat(`\`, 2*backslashes))
				b.WriteString(`\"`)
				backslashes = 0
			default:
				b.WriteString(strings.Repeat(`\`, backslashes))
				backslashes = 0
				b.WriteRune(c)
			}
		}
		b.WriteString(strings.Repeat(`\`, backslashes))
		if quote {
			b.WriteString(strings.Repeat(`\`, backslashes))
			b.WriteByte('"')
		}
	}
	return b.String()
}
