//go:build windows

package scope

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"
)

func TestWithinWindows(t *testing.T) {
	cases := []struct {
		root, p string
		want    bool
	}{
		{`C:\Work\Project`, `c:\work\project\src`, true},
		{`C:\Work\Project`, `C:\WORK\PROJECT`, true},
		{`C:\Work\Project`, `C:/Work/Project/src`, true},
		{`C:\Work\Project`, `D:\Work\Project\src`, false},
		{`C:\Work\Project`, `C:\Work\Project-other`, false},
		{`C:\Work\Project`, `C:\Work`, false},
		{`\\srv\share\proj`, `\\SRV\Share\proj\x`, true},
		{`\\srv\share\proj`, `\\srv\elsewhere\proj\x`, false},
		{`C:\Work\Project`, `\Work\Project\x`, false},
		{`C:\Work\Project`, `C:Work\Project\x`, false},
	}
	for _, c := range cases {
		if got := Within(c.root, c.p); got != c.want {
			t.Errorf("Within(%q, %q) = %v, want %v", c.root, c.p, got, c.want)
		}
	}
}

func TestStripVerbatim(t *testing.T) {
	for in, want := range map[string]string{
		`\\?\C:\x\y`:          `C:\x\y`,
		`\\?\UNC\srv\share\x`: `\\srv\share\x`,
		`C:\x`:                `C:\x`,
	} {
		if got := stripVerbatim(in); got != want {
			t.Errorf("stripVerbatim(%q) = %q, want %q", in, got, want)
		}
	}
}

// ResolveDir must be case-normalising: a path typed in another case resolves to the
// same final path.
func TestResolveDirCase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "MixedCase")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := ResolveDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ResolveDir(strings.ToUpper(dir))
	if err != nil {
		t.Fatal(err)
	}
	if !Within(a, b) || !Within(b, a) {
		t.Errorf("%q and %q should be the same directory", a, b)
	}
	if strings.HasPrefix(a, `\\?\`) {
		t.Errorf("verbatim prefix left in %q", a)
	}
}

// A junction inside the project that points outside must resolve outside: this is what
// filepath.EvalSymlinks (Go ≥1.23) would miss.
func TestResolveDirJunctionEscape(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "project")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{proj, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(proj, "junction")
	if err := makeJunction(link, outside); err != nil {
		t.Skipf("cannot create a junction here (Wine 8 has no reparse points): %v", err)
	}
	realProj, err := ResolveDir(proj)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ResolveDir(link)
	if err != nil {
		t.Fatal(err)
	}
	if Within(realProj, got) {
		t.Fatalf("junction %q resolved to %q, inside %q", link, got, realProj)
	}
}

func makeJunction(link, target string) error {
	if err := os.Mkdir(link, 0o755); err != nil {
		return err
	}
	p, _ := windows.UTF16PtrFromString(link)
	h, err := windows.CreateFile(p, windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	subst, _ := windows.UTF16FromString(`\??\` + target)
	print, _ := windows.UTF16FromString(target)
	pathBuf := append(append([]uint16{}, subst...), print...)
	const header = 8 // four uint16 offsets/lengths
	dataLen := header + 2*len(pathBuf)
	buf := make([]byte, 8+dataLen)
	le := func(off int, v uint32, size int) {
		for i := 0; i < size; i++ {
			buf[off+i] = byte(v >> (8 * i))
		}
	}
	le(0, windows.IO_REPARSE_TAG_MOUNT_POINT, 4)
	le(4, uint32(dataLen), 2)
	le(8, 0, 2)                         // SubstituteNameOffset
	le(10, uint32(2*(len(subst)-1)), 2) // SubstituteNameLength (no NUL)
	le(12, uint32(2*len(subst)), 2)     // PrintNameOffset
	le(14, uint32(2*(len(print)-1)), 2) // PrintNameLength
	for i, c := range pathBuf {
		le(16+2*i, uint32(c), 2)
	}
	var n uint32
	return windows.DeviceIoControl(h, windows.FSCTL_SET_REPARSE_POINT, &buf[0], uint32(len(buf)), nil, 0, &n, nil)
}
