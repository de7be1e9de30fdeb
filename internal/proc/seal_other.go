//go:build !windows

package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// needsInterpreter is false off Windows: a .ps1 file is an ordinary executable here.
const needsInterpreter = false

// checkTarget has no extension rule off Windows; executability is the kernel's call.
func checkTarget(string) error { return nil }

// kindAllowed: off Windows every executable is a plain file.
func kindAllowed(kind IdentityKind, _ string) bool { return kind == KindFile }

// sealedFile is an open descriptor of the verified file. Unix has no share modes, so
// holding it cannot lock out writers; the hash is still taken from the same open file
// right before the spawn, which narrows the window to the exec itself.
type sealedFile struct {
	f  *os.File
	id Identity
}

func (s *sealedFile) Close() error {
	if s == nil || s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// openSeal opens path (following links: /usr/bin entries are often links), requires a
// regular file and hashes its bytes.
func openSeal(path string) (*sealedFile, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("executable path must be absolute: %q", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, errors.New("not a regular file: " + path)
	}
	h := newHash()
	if _, err := io.Copy(h, f); err != nil {
		f.Close()
		return nil, err
	}
	return &sealedFile{f: f, id: Identity{Kind: KindFile, SHA256: sumHex(h)}}, nil
}

// Fingerprint returns the identity of the executable at the absolute path: SHA-256 of
// its bytes, kind file (App Execution Aliases and PowerShell scripts exist only on
// Windows).
func Fingerprint(path string) (Identity, error) {
	s, err := openSeal(path)
	if err != nil {
		return Identity{}, err
	}
	defer s.Close()
	return s.id, nil
}
