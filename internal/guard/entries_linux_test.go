package guard

import (
	"strings"
	"testing"
)

// FuzzDirents feeds arbitrary bytes to the getdents decoder: it must never panic, and
// every name it yields is non-empty, NUL-free and not "." or "..".
func FuzzDirents(f *testing.F) {
	rec := func(ino uint64, typ byte, name string) []byte {
		n := 19 + len(name) + 1
		n = (n + 7) &^ 7
		b := make([]byte, n)
		for i := range 8 {
			b[i] = byte(ino >> (8 * i))
		}
		b[16], b[17] = byte(n), byte(n>>8)
		b[18] = typ
		copy(b[19:], name)
		return b
	}
	f.Add(append(append(rec(1, 4, "."), rec(2, 4, "..")...), rec(3, 8, "file.txt")...))
	f.Add(rec(7, 10, "link"))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, e := range appendDirents(nil, b) {
			if e.Name == "" || e.Name == "." || e.Name == ".." || strings.ContainsRune(e.Name, 0) {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}
