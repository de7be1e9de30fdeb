//go:build windows

package filever

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"golang.org/x/sys/windows"
)

func TestVersionOfSystemBinary(t *testing.T) {
	t.Parallel()
	sys, err := windows.GetSystemDirectory()
	if err != nil {
		t.Fatal(err)
	}
	v, err := Version(filepath.Join(sys, "kernel32.dll"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+\.\d+$`).MatchString(v) {
		t.Fatalf("version %q is not four numeric parts", v)
	}
}

func TestVersionWithoutResource(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "plain.exe")
	if err := os.WriteFile(p, []byte("not a PE file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, err := Version(p); err == nil {
		t.Fatalf("got version %q for a file without a version resource", v)
	}
}

func TestFileIsPinnedWhileRead(t *testing.T) {
	t.Parallel()
	// The handle Version opens denies writers; prove the share mode it relies on.
	p := filepath.Join(t.TempDir(), "pinned.bin")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p16, _ := windows.UTF16PtrFromString(p)
	h, err := windows.CreateFile(p16, windows.GENERIC_READ, windows.FILE_SHARE_READ, nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(h)
	if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
		f.Close()
		t.Fatal("a writer opened the file while it was held share-read")
	}
	if err := os.Remove(p); err == nil {
		t.Fatal("the file was deleted while it was held share-read")
	}
}
