package proc

import "strings"

// ExpandPercent expands %NAME% references the way ExpandEnvironmentStrings does, but
// through getenv so a per-call environment is honoured: an unknown or empty variable
// and an unmatched % stay literal. Variable names are looked up as written (Windows
// environment lookups are case-insensitive already). The resolver here and PATH
// presence in tools/internal/discovery both expand with it, so they agree on every entry.
func ExpandPercent(s string, getenv func(string) string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		name := s[i+1 : i+1+j]
		b.WriteString(s[:i])
		if v := getenv(name); name != "" && v != "" {
			b.WriteString(v)
			s = s[i+2+j:]
			continue
		}
		// Not a known variable: keep the first % literal and rescan from the second,
		// which may open a real reference (ExpandEnvironmentStrings does the same).
		b.WriteString("%" + name)
		s = s[i+1+j:]
	}
}
