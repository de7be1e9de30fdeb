//go:build windows

package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"

	"github.com/windows-dev-agent/wda/internal/platform/finalpath"
)

// needsInterpreter: .ps1 targets run through Windows PowerShell.
const needsInterpreter = true

// setsPWD is false: Windows has no PWD convention; the environment is passed as given.
const setsPWD = false

// checkTarget allows only .exe, .com and .ps1 targets; .bat/.cmd would be parsed by
// cmd.exe, which reinterprets arguments.
func checkTarget(path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".exe", ".com", ".ps1":
		return nil
	case "":
		return errors.New("Unsupported Windows command target: (no extension)")
	}
	return fmt.Errorf("Unsupported Windows command target: %s", ext)
}

// kindAllowed: a .ps1 path must carry powershell_script and vice versa
// (docs/process-runner.md §3.1).
func kindAllowed(kind IdentityKind, path string) bool { return kindMatchesPath(kind, path) }

// sealedFile is a handle opened with read access and FILE_SHARE_READ only: while it is
// open, competing write, rename/replace and delete opens fail. For an App Execution
// Alias it is the reparse point itself, opened without following it.
type sealedFile struct {
	h  windows.Handle
	id Identity
}

func (s *sealedFile) Close() error {
	if s == nil || s.h == 0 {
		return nil
	}
	err := windows.CloseHandle(s.h)
	s.h = 0
	return err
}

// sealExecutable holds the executable share-read-only from here until the child has
// been created, so neither its bytes nor its name can change in between, and compares
// the bytes read from the held handle with the reviewed identity.
func sealExecutable(p *prepared, exe string, expected *Identity) *Receipt {
	s, err := openSeal(exe)
	if err != nil {
		return sealFailure(p.args, expected, err)
	}
	p.seals = append(p.seals, s)
	if expected != nil && !s.id.Equal(*expected) {
		return identityChanged(p.args, exe)
	}
	return nil
}

// heldWorkDir gives the child the final path of the held directory. The handle is
// duplicated (same file object, same share mode) and kept until the child exists:
// opened without FILE_SHARE_DELETE, as os.Open does, it makes renaming or deleting the
// directory fail, so the path still names it when CreateProcess opens it
// (docs/process-runner.md §5).
func heldWorkDir(h *os.File) (workDir, error) {
	cur := windows.CurrentProcess()
	var dup windows.Handle
	if err := windows.DuplicateHandle(cur, windows.Handle(h.Fd()), cur, &dup, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return workDir{}, fmt.Errorf("duplicate: %w", err)
	}
	held := handleCloser(dup)
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(dup, &info); err != nil {
		_ = held.Close()
		return workDir{}, err
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY == 0 {
		_ = held.Close()
		return workDir{}, errors.New("not a directory")
	}
	dir, err := finalpath.OfHandle(dup)
	if err != nil {
		_ = held.Close()
		return workDir{}, fmt.Errorf("final path: %w", err)
	}
	return workDir{dir: dir, held: held}, nil
}

type handleCloser windows.Handle

func (h handleCloser) Close() error { return windows.CloseHandle(windows.Handle(h)) }

// openSeal opens path share-read-only without following a final reparse point. An
// App Execution Alias is hashed as its raw reparse buffer; any other reparse point is
// refused; a plain file must have exactly the requested final path and is hashed by
// its bytes, read from the held handle.
func openSeal(path string) (*sealedFile, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("executable path must be absolute: %q", path)
	}
	// .bat/.cmd have no identity: they are never executable here.
	if err := checkTarget(path); err != nil {
		return nil, err
	}
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ, windows.FILE_SHARE_READ, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	s := &sealedFile{h: h}
	if err := s.identify(path); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *sealedFile) identify(path string) error {
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(s.h, &info); err != nil {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0 {
		return fmt.Errorf("not a file: %s", path)
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		buf := make([]byte, maxReparseBuffer)
		var n uint32
		if err := windows.DeviceIoControl(s.h, windows.FSCTL_GET_REPARSE_POINT, nil, 0, &buf[0], uint32(len(buf)), &n, nil); err != nil {
			return fmt.Errorf("read reparse data of %s: %w", path, err)
		}
		tag, err := reparseTag(buf[:n])
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if tag != ioReparseTagAppExecLink || isPowerShellScript(path) {
			return fmt.Errorf("executable path is a symbolic link or reparse point (tag %#x): %s", tag, path)
		}
		h := newHash()
		h.Write(buf[:n])
		s.id = Identity{Kind: KindAppExecutionAlias, SHA256: sumHex(h)}
		return nil
	}
	final, err := finalpath.OfHandle(s.h)
	if err != nil {
		return fmt.Errorf("final path of %s: %w", path, err)
	}
	if !finalPathMatches(path, final) && !finalPathMatches(longPath(path), final) {
		return fmt.Errorf("executable path resolves elsewhere (%s): %s", final, path)
	}
	h := newHash()
	buf := make([]byte, 64*1024)
	for {
		var n uint32
		err := windows.ReadFile(s.h, buf, &n, nil)
		if n > 0 {
			h.Write(buf[:n])
		}
		if err == windows.ERROR_HANDLE_EOF || err == nil && n == 0 {
			break
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
	}
	kind := KindFile
	if isPowerShellScript(path) {
		kind = KindPowerShellScript
	}
	s.id = Identity{Kind: kind, SHA256: sumHex(h)}
	return nil
}

// longPath expands 8.3 short components (C:\PROGRA~1) so they compare equal to the
// final path; on failure the input is returned unchanged.
func longPath(path string) string {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return path
	}
	buf := make([]uint16, windows.MAX_PATH)
	for {
		n, err := windows.GetLongPathName(p, &buf[0], uint32(len(buf)))
		if err != nil || n == 0 {
			return path
		}
		if int(n) < len(buf) {
			return windows.UTF16ToString(buf[:n])
		}
		buf = make([]uint16, n+1)
	}
}

// Fingerprint returns the identity of the executable at the absolute path
// (docs/process-runner.md §3.1): an
// App Execution Alias is the SHA-256 of its raw reparse buffer; a .ps1 file is a
// powershell_script; anything else is the SHA-256 of the bytes of a file whose final
// path is exactly path.
func Fingerprint(path string) (Identity, error) {
	s, err := openSeal(path)
	if err != nil {
		return Identity{}, err
	}
	defer s.Close()
	return s.id, nil
}
