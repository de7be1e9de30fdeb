package mcpconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readTxtar parses the txtar format (a comment, then "-- name --" file headers) without
// golang.org/x/tools, which this module does not depend on.
func readTxtar(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	name := ""
	var body strings.Builder
	flush := func() {
		if name != "" {
			files[name] = body.String()
		}
		body.Reset()
	}
	for _, line := range strings.SplitAfter(string(b), "\n") {
		trim := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trim, "-- ") && strings.HasSuffix(trim, " --") && len(trim) > 6 {
			flush()
			name = strings.TrimSpace(trim[3 : len(trim)-3])
			continue
		}
		body.WriteString(line)
	}
	flush()
	return files
}

// materialise writes every file except those under "want" into root. The escape
// sequences \xEF\xBB\xBF and \xFF in a body become those bytes, so BOM and invalid
// UTF-8 fixtures stay readable text in the archive.
func materialise(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if strings.HasPrefix(name, "want") {
			continue
		}
		body = strings.NewReplacer(`\xEF\xBB\xBF`, "\xEF\xBB\xBF", `\xFF`, "\xFF").Replace(body)
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
