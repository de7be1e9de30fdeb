package proc

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"hash"
	"path/filepath"
	"strings"
)

// ValidIdentity reports whether kind is one of the three identity kinds and sha is
// exactly 64 hexadecimal characters (either case).
func ValidIdentity(kind, sha string) bool {
	switch IdentityKind(kind) {
	case KindFile, KindAppExecutionAlias, KindPowerShellScript:
	default:
		return false
	}
	if len(sha) != sha256.Size*2 {
		return false
	}
	_, err := hex.DecodeString(sha)
	return err == nil
}

// Valid is ValidIdentity for a.
func (a Identity) Valid() bool { return ValidIdentity(string(a.Kind), a.SHA256) }

// Equal compares kinds exactly and fingerprints case-insensitively in constant time.
// Invalid identities are never equal to anything.
func (a Identity) Equal(b Identity) bool {
	if !a.Valid() || !b.Valid() || a.Kind != b.Kind {
		return false
	}
	x, y := strings.ToLower(a.SHA256), strings.ToLower(b.SHA256)
	return subtle.ConstantTimeCompare([]byte(x), []byte(y)) == 1
}

// isPowerShellScript reports whether path names a .ps1 file (case-insensitive).
func isPowerShellScript(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".ps1")
}

// kindMatchesPath enforces docs/process-runner.md §3.1: a .ps1 path must carry
// powershell_script and powershell_script must name a .ps1 path.
func kindMatchesPath(kind IdentityKind, path string) bool {
	return (kind == KindPowerShellScript) == isPowerShellScript(path)
}

func newHash() hash.Hash { return sha256.New() }

func sumHex(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }
