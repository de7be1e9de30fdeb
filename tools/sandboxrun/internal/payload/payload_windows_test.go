//go:build windows

package payload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/windows-dev-agent/wda/internal/guard"
)

// isWine reports whether the test runs under Wine, which cannot create junctions or
// symbolic links (under Wine FSCTL_SET_REPARSE_POINT is "not supported").
func isWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

// junction makes link a directory junction (IO_REPARSE_TAG_MOUNT_POINT) to target,
// the reparse point kind that needs no privilege.
func junction(t *testing.T, target, link string) {
	t.Helper()
	if isWine() {
		t.Skip("Wine cannot create junctions (FSCTL_SET_REPARSE_POINT is not supported); this runs on the windows-latest job")
	}
	if err := os.Mkdir(link, 0o755); err != nil {
		t.Fatal(err)
	}
	p, _ := windows.UTF16PtrFromString(link)
	h, err := windows.CreateFile(p, windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(h)
	subst, _ := windows.UTF16FromString(`\??\` + target)
	print, _ := windows.UTF16FromString(target)
	// REPARSE_DATA_BUFFER, MountPointReparseBuffer: tag, length, reserved, then four
	// USHORT offsets/lengths (bytes, excluding NULs) and the two NUL-terminated names.
	pathBuf := append(subst, print...)
	data := make([]byte, 8+8+2*len(pathBuf))
	le := func(off int, v uint32, size int) {
		for i := range size {
			data[off+i] = byte(v >> (8 * i))
		}
	}
	le(0, windows.IO_REPARSE_TAG_MOUNT_POINT, 4)
	le(4, uint32(8+2*len(pathBuf)), 2)
	le(8, 0, 2)
	le(10, uint32(2*(len(subst)-1)), 2)
	le(12, uint32(2*len(subst)), 2)
	le(14, uint32(2*(len(print)-1)), 2)
	for i, c := range pathBuf {
		le(16+2*i, uint32(c), 2)
	}
	var ret uint32
	if err := windows.DeviceIoControl(h, windows.FSCTL_SET_REPARSE_POINT, &data[0], uint32(len(data)), nil, 0, &ret, nil); err != nil {
		t.Fatalf("FSCTL_SET_REPARSE_POINT: %v", err)
	}
}

func TestJunctionIsAReparsePoint(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"real/f.txt": "f"})
	junction(t, filepath.Join(ws, "real"), filepath.Join(ws, "j"))
	k, _, err := lstatKind(filepath.Join(ws, "j"))
	if err != nil {
		t.Fatal(err)
	}
	if k != guard.KindLink {
		t.Fatalf("junction kind = %v, want link", k)
	}
	root, err := guard.OpenRoot(bind(t, ws), guard.Shared)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if info, err := root.Stat("j"); err != nil || info.Kind != guard.KindLink {
		t.Fatalf("Stat from the held workspace = %+v, %v; want a link", info, err)
	}
	p, _ := windows.UTF16PtrFromString(filepath.Join(ws, "j"))
	attrs, err := windows.GetFileAttributes(p)
	if err != nil || attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT == 0 {
		t.Fatalf("attributes %#x, %v: want FILE_ATTRIBUTE_REPARSE_POINT", attrs, err)
	}
}

func TestValidateJunctions(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	tree(t, outside, map[string]string{"secret.txt": "s"})
	ws := t.TempDir()
	tree(t, ws, map[string]string{"real/child.txt": "c", "tree/a/b/file.txt": "x"})
	junction(t, filepath.Join(ws, "real"), filepath.Join(ws, "rootj"))
	junction(t, outside, filepath.Join(ws, "outj"))
	junction(t, outside, filepath.Join(ws, "tree", "a", "b", "deepj"))
	tests := []struct {
		paths []string
		want  string
	}{
		{[]string{"rootj"}, "payload path crosses a symbolic link or reparse point: rootj"},
		{[]string{`rootj\child.txt`}, "payload path crosses a symbolic link or reparse point: rootj"},
		{[]string{"outj/secret.txt"}, "payload path crosses a symbolic link or reparse point: outj"},
		{[]string{"tree"}, "payload contains a symbolic link or reparse point: tree/a/b/deepj"},
	}
	for _, tc := range tests {
		_, err := Validate(bind(t, ws), tc.paths)
		errContains(t, err, tc.want)
	}
}

func TestJunctionSwappedAfterValidation(t *testing.T) {
	t.Parallel()
	ws, outside, data := t.TempDir(), t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"tree/sub/f.txt": "inside"})
	tree(t, outside, map[string]string{"f.txt": "OUTSIDE"})
	sel := mustValidate(t, ws, "tree")
	if isWine() {
		t.Skip("Wine cannot create junctions; this runs on the windows-latest job")
	}
	if err := os.RemoveAll(filepath.Join(ws, "tree", "sub")); err != nil {
		t.Fatal(err)
	}
	junction(t, outside, filepath.Join(ws, "tree", "sub"))
	_, err := Stage(data, sel, "x")
	errContains(t, err, "reparse point")
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("failed staging left %v", n)
	}
}

// TestJunctionSwappedDuringStaging: swapped between the no-follow stat and the open,
// the handle's reparse attribute (or its final path) refuses it.
func TestJunctionSwappedDuringStaging(t *testing.T) {
	t.Parallel()
	ws, outside, data := t.TempDir(), t.TempDir(), t.TempDir()
	tree(t, ws, map[string]string{"tree/sub/f.txt": "inside"})
	tree(t, outside, map[string]string{"f.txt": "OUTSIDE"})
	sel := mustValidate(t, ws, "tree")
	victim := filepath.Join(sel.Workspace, "tree", "sub")
	fired := false
	hook := func(p string) {
		if strings.EqualFold(p, victim) && !fired {
			fired = true
			os.RemoveAll(victim)
			junction(t, outside, victim)
		}
	}
	_, err := stage(data, sel, "x", defaultLimits, hook)
	if err == nil || !strings.Contains(err.Error(), "reparse point") && !strings.Contains(err.Error(), "staged safely") {
		t.Fatalf("error = %v, want a reparse/staged-safely refusal", err)
	}
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("failed staging left %v", n)
	}
}

func TestWindowsNames(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"Dir/f.txt": "f", "x.txt": "x"})
	tests := []struct {
		paths []string
		want  string
	}{
		{[]string{"Dir", `dir\f.txt`}, "overlap or duplicate"},
		{[]string{"DIR", "dir"}, "overlap or duplicate"},
		{[]string{"x.txt."}, "ends with a dot or space"},
		{[]string{"x.txt "}, "ends with a dot or space"},
		{[]string{"x.txt:stream"}, "not a plain Windows file name"},
		{[]string{"NUL"}, "reserved Windows device"},
		{[]string{`Dir\com1.txt`}, "reserved Windows device"},
		{[]string{`C:x.txt`}, "must stay inside the workspace"},
		{[]string{`\x.txt`}, "must stay inside the workspace"},
		{[]string{`\\server\share\x`}, "must stay inside the workspace"},
		{[]string{`Dir\..\x.txt`}, "must stay inside the workspace"},
	}
	for _, tc := range tests {
		_, err := Validate(bind(t, ws), tc.paths)
		errContains(t, err, tc.want)
	}
	// A case-different spelling stages: the final path compares case-insensitively.
	data := t.TempDir()
	b, err := Stage(data, mustValidate(t, ws, `dir\F.TXT`), "x")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(b.Share, PayloadDir, "dir", "F.TXT")); err != nil || string(got) != "f" {
		t.Fatalf("staged %q, %v", got, err)
	}
}

// TestShortNameRefused: a payload path spelled with a folder's 8.3 short name opens
// that folder, but what was reviewed is not what would be staged: it is refused.
func TestShortNameRefused(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	tree(t, ws, map[string]string{"a long folder name/f.txt": "f"})
	p, _ := windows.UTF16PtrFromString(filepath.Join(ws, "a long folder name"))
	buf := make([]uint16, 1024)
	n, err := windows.GetShortPathName(p, &buf[0], uint32(len(buf)))
	short := filepath.Base(windows.UTF16ToString(buf[:n]))
	if err != nil || strings.EqualFold(short, "a long folder name") {
		t.Skipf("this volume gives no short names (%q, %v)", short, err)
	}
	// Validation opens the folder on the way and already sees the alias.
	_, err = Validate(bind(t, ws), []string{short + `\f.txt`})
	errContains(t, err, "does not open as itself")
}

// TestHardLinksWindows: NumberOfLinks > 1 on the handle refuses the file, at
// validation and at staging (Wine maps CreateHardLink to link(2)).
func TestHardLinksWindows(t *testing.T) {
	t.Parallel()
	ws, outside := t.TempDir(), t.TempDir()
	tree(t, outside, map[string]string{"secret.txt": "OUTSIDE"})
	tree(t, ws, map[string]string{"tree/a.txt": "a"})
	if err := os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "tree", "leak.txt")); err != nil {
		t.Skipf("hard links cannot be made here: %v", err)
	}
	_, err := Validate(bind(t, ws), []string{"tree"})
	errContains(t, err, "more than one hard link, which may be a file outside the workspace: tree/leak.txt")
	os.Remove(filepath.Join(ws, "tree", "leak.txt"))
	sel := mustValidate(t, ws, "tree")
	if err := os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "tree", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	_, err = Stage(data, sel, "x")
	errContains(t, err, "more than one hard link, which may be a file outside the workspace: tree/leak.txt")
	if n := bundles(t, data); len(n) != 0 {
		t.Fatalf("failed staging left %v", n)
	}
}
