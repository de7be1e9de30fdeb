//go:build windows

package guard

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf16"

	"golang.org/x/sys/windows"
)

// underWine reports whether the test runs under Wine, which cannot create junctions
// (FSCTL_SET_REPARSE_POINT is unsupported and mklink /J fails silently; wine.md §2a).
func underWine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}

// junction makes link a mount-point reparse point (a junction) to target, or skips.
func junction(t *testing.T, target, link string) {
	t.Helper()
	if underWine() {
		t.Skip("Wine cannot create junctions (FSCTL_SET_REPARSE_POINT is not supported)")
	}
	if err := os.Mkdir(link, 0o755); err != nil {
		t.Fatal(err)
	}
	p, _ := windows.UTF16PtrFromString(link)
	h, err := windows.CreateFile(p, windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(h)
	sub := utf16.Encode([]rune(`\??\` + target))
	prn := utf16.Encode([]rune(target))
	// MountPointReparseBuffer: four uint16 offsets/lengths, then both names NUL-terminated.
	pathBuf := make([]byte, 0, 2*(len(sub)+len(prn)+2))
	for _, u := range append(append(append(sub, 0), prn...), 0) {
		pathBuf = binary.LittleEndian.AppendUint16(pathBuf, u)
	}
	data := make([]byte, 8)
	binary.LittleEndian.PutUint16(data[0:], 0)
	binary.LittleEndian.PutUint16(data[2:], uint16(2*len(sub)))
	binary.LittleEndian.PutUint16(data[4:], uint16(2*(len(sub)+1)))
	binary.LittleEndian.PutUint16(data[6:], uint16(2*len(prn)))
	data = append(data, pathBuf...)
	buf := make([]byte, 8, 8+len(data))
	binary.LittleEndian.PutUint32(buf[0:], windows.IO_REPARSE_TAG_MOUNT_POINT)
	binary.LittleEndian.PutUint16(buf[4:], uint16(len(data)))
	buf = append(buf, data...)
	var n uint32
	if err := windows.DeviceIoControl(h, windows.FSCTL_SET_REPARSE_POINT, &buf[0], uint32(len(buf)), nil, 0, &n, nil); err != nil {
		t.Fatalf("FSCTL_SET_REPARSE_POINT: %v", err)
	}
	// Check the effect, not the return code.
	fi, err := os.Lstat(link)
	if err != nil || !sys.linkLike(fi) {
		t.Skipf("junction was not created (lstat %v, %v)", fi, err)
	}
}

func tempRoot(t *testing.T) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func write(t *testing.T, p, content string) {
	t.Helper()
	mkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFinalPathAccepted runs under Wine too: a plain project file passes the
// final-path verification, whatever the case of the requested name.
func TestFinalPathAccepted(t *testing.T) {
	root := tempRoot(t)
	write(t, filepath.Join(root, ".continue", "config.json"), `{"mcpServers":{}}`)
	for _, rel := range []string{".continue/config.json", `.continue\config.json`, ".CONTINUE/Config.JSON"} {
		if _, err := ReadProjectJSON(root, rel); err != nil {
			t.Errorf("ReadProjectJSON(%q): %v", rel, err)
		}
	}
	if _, err := ReadProjectJSON(root, "missing.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

func TestWithinCaseInsensitive(t *testing.T) {
	if !Within(`C:\Proj`, `c:\proj\A\b.json`) || Within(`C:\Proj`, `C:\Project\x`) || Within(`C:\a`, `D:\a\b`) {
		t.Fatal("Within must compare components case-insensitively and volumes exactly")
	}
}

func TestReparseAttributeIsLinkLike(t *testing.T) {
	fi := fakeInfo{attrs: windows.FILE_ATTRIBUTE_REPARSE_POINT | windows.FILE_ATTRIBUTE_ARCHIVE}
	if !sys.linkLike(fi) {
		t.Fatal("a reparse-point attribute must be link-like even for a plain-looking file")
	}
	if sys.linkLike(fakeInfo{attrs: windows.FILE_ATTRIBUTE_ARCHIVE}) {
		t.Fatal("a plain file is not link-like")
	}
}

type fakeInfo struct{ attrs uint32 }

func (f fakeInfo) Name() string       { return "x" }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return 0 }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return &syscall.Win32FileAttributeData{FileAttributes: f.attrs} }

func TestJunctionParentRejected(t *testing.T) {
	outside := tempRoot(t)
	write(t, filepath.Join(outside, "config.json"), `{"mcpServers":{"leak":{"command":"x"}}}`)
	root := tempRoot(t)
	junction(t, outside, filepath.Join(root, ".continue"))
	_, err := ReadProjectJSON(root, ".continue/config.json")
	if err == nil || !strings.Contains(err.Error(), "reparse point: "+filepath.Join(root, ".continue")) {
		t.Fatalf("err = %v, want the junction refused", err)
	}
}

// TestJunctionSwappedAfterCheck swaps a checked parent for a junction between Check and
// the open: the opened handle's final path differs from the requested one.
func TestJunctionSwappedAfterCheck(t *testing.T) {
	outside := tempRoot(t)
	write(t, filepath.Join(outside, "config.json"), `{"leak":true}`)
	root := tempRoot(t)
	write(t, filepath.Join(root, "cfg", "config.json"), `{"leak":false}`)
	if underWine() {
		t.Skip("Wine cannot create junctions (FSCTL_SET_REPARSE_POINT is not supported)")
	}
	defer func(old func()) { afterCheck = old }(afterCheck)
	afterCheck = func() {
		if err := os.Rename(filepath.Join(root, "cfg"), filepath.Join(root, "cfg.old")); err != nil {
			t.Error(err)
			return
		}
		junction(t, outside, filepath.Join(root, "cfg"))
	}
	m, err := ReadProjectJSON(root, "cfg/config.json")
	if err == nil || !strings.Contains(err.Error(), "reparse point") {
		t.Fatalf("got %v, %v; want the swapped parent refused", m, err)
	}
}
