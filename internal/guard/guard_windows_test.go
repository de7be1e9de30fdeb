//go:build windows

package guard

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"golang.org/x/sys/windows"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

// underWine reports whether the test runs under Wine, which cannot create junctions
// (FSCTL_SET_REPARSE_POINT is unsupported and mklink /J fails silently).
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
	if err != nil || fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) == 0 {
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

// TestCaseInsensitiveNames runs under Wine too: a project file is found from the held
// directory whatever the case of the requested names (NTFS compares names without case).
func TestCaseInsensitiveNames(t *testing.T) {
	t.Parallel()
	root := tempRoot(t)
	write(t, filepath.Join(root, ".continue", "config.json"), `{"mcpServers":{}}`)
	p := testkit.Project(t, root)
	for _, rel := range []string{".continue/config.json", `.continue\config.json`, ".CONTINUE/Config.JSON"} {
		if _, err := ReadProjectJSON(p, rel); err != nil {
			t.Errorf("ReadProjectJSON(%q): %v", rel, err)
		}
	}
	if _, err := ReadProjectJSON(p, "missing.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := ReadProjectJSON(p, "missing/x.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing parent: %v", err)
	}
	if _, err := ReadProjectJSON(p, ".continue"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
	// A stream name would open an alternate data stream of the file before it.
	if _, err := ReadProjectJSON(p, ".continue/config.json:x"); err == nil || !strings.Contains(err.Error(), "invalid project path") {
		t.Errorf("stream: %v", err)
	}
}

// TestHardLinksWindows: NumberOfLinks > 1 from the handle refuses the read (Wine maps
// CreateHardLink to link(2) and reports the count).
func TestHardLinksWindows(t *testing.T) {
	t.Parallel()
	outside := tempRoot(t)
	write(t, filepath.Join(outside, "secret.json"), `{"mcpServers":{"SECRET":{"command":"x"}}}`)
	root := tempRoot(t)
	if err := os.Link(filepath.Join(outside, "secret.json"), filepath.Join(root, ".mcp.json")); err != nil {
		t.Skipf("hard links cannot be made here: %v", err)
	}
	p := testkit.Project(t, root)
	_, err := ReadProject(p, ".mcp.json")
	var he *HardLinkError
	if !errors.As(err, &he) {
		t.Fatalf("err = %v, want a HardLinkError", err)
	}
}

func TestReparseAttributeIsLink(t *testing.T) {
	t.Parallel()
	if kindOfAttrs(windows.FILE_ATTRIBUTE_REPARSE_POINT|windows.FILE_ATTRIBUTE_ARCHIVE, true) != KindLink {
		t.Fatal("a reparse-point attribute must be a link even for a plain-looking file")
	}
	if kindOfAttrs(windows.FILE_ATTRIBUTE_REPARSE_POINT|windows.FILE_ATTRIBUTE_DIRECTORY, false) != KindLink {
		t.Fatal("a directory reparse point (junction) must be a link")
	}
	if kindOfAttrs(windows.FILE_ATTRIBUTE_ARCHIVE, true) != KindFile || kindOfAttrs(windows.FILE_ATTRIBUTE_ARCHIVE, false) != KindOther {
		t.Fatal("a plain disk file is a file; a pipe or device is other")
	}
}

func TestJunctionParentRejected(t *testing.T) {
	t.Parallel()
	outside := tempRoot(t)
	write(t, filepath.Join(outside, "config.json"), `{"mcpServers":{"leak":{"command":"x"}}}`)
	root := tempRoot(t)
	junction(t, outside, filepath.Join(root, ".continue"))
	_, err := ReadProjectJSON(testkit.Project(t, root), ".continue/config.json")
	if err == nil || !strings.Contains(err.Error(), "reparse point: "+filepath.Join(root, ".continue")) {
		t.Fatalf("err = %v, want the junction refused", err)
	}
}

// TestJunctionSwappedAfterBinding swaps a parent for a junction after the project was
// bound: the walk opens the junction itself (FILE_OPEN_REPARSE_POINT) and refuses it.
func TestJunctionSwappedAfterBinding(t *testing.T) {
	t.Parallel()
	outside := tempRoot(t)
	write(t, filepath.Join(outside, "config.json"), `{"leak":true}`)
	root := tempRoot(t)
	write(t, filepath.Join(root, "cfg", "config.json"), `{"leak":false}`)
	if underWine() {
		t.Skip("Wine cannot create junctions (FSCTL_SET_REPARSE_POINT is not supported)")
	}
	p := testkit.Project(t, root)
	if err := os.Rename(filepath.Join(root, "cfg"), filepath.Join(root, "cfg.old")); err != nil {
		t.Fatal(err)
	}
	junction(t, outside, filepath.Join(root, "cfg"))
	m, err := ReadProjectJSON(p, "cfg/config.json")
	if err == nil || !strings.Contains(err.Error(), "reparse point") {
		t.Fatalf("got %v, %v; want the swapped parent refused", m, err)
	}
}
