//go:build !windows

package proc

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// needsInterpreter is false off Windows: a .ps1 file is an ordinary executable here.
const needsInterpreter = false

// setsPWD: Unix children are told their working directory through PWD.
const setsPWD = true

// checkTarget has no extension rule off Windows; executability is the kernel's call.
func checkTarget(string) error { return nil }

// kindAllowed: off Windows every executable is a plain file.
func kindAllowed(kind IdentityKind, _ string) bool { return kind == KindFile }

// sealedFile is an open descriptor of the executable. Unix has no share modes, so
// holding it cannot lock out writers; what it buys depends on the platform
// (docs/process-runner.md §3.2, §3.3). id is set once the bytes have been hashed.
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

// openExecutable opens path (following links: /usr/bin entries are often links) and
// requires a regular file.
func openExecutable(path string) (*os.File, error) {
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
	return f, nil
}

// hashFile is the file identity of the bytes of f, read with pread so the offset a
// child may share through an inherited descriptor never moves.
func hashFile(f *os.File) (Identity, error) {
	h := newHash()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, math.MaxInt64)); err != nil {
		return Identity{}, err
	}
	return Identity{Kind: KindFile, SHA256: sumHex(h)}, nil
}

// openSeal opens path and hashes its bytes from the opened file.
func openSeal(path string) (*sealedFile, error) {
	f, err := openExecutable(path)
	if err != nil {
		return nil, err
	}
	id, err := hashFile(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &sealedFile{f: f, id: id}, nil
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
