package discovery

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

const (
	generationFileName = "environment.generation"
	generationLen      = 32
)

// generation is the mutation-generation token (docs/discovery.md, "Generation token"). ok
// is false when the token is not established; the empty token is the valid
// "never invalidated" baseline.
type generation struct {
	token string
	ok    bool
}

// validToken is exactly 32 lowercase hex characters.
func validToken(s string) bool {
	if len(s) != generationLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// readGeneration reads the token: absent is the baseline; anything that is not a
// valid token (empty, "unknown", non-hex, wrong length, non-ASCII, an I/O error
// other than not-found) is not established.
func readGeneration(dir string) generation {
	f, err := os.Open(filepath.Join(dir, generationFileName))
	if errors.Is(err, fs.ErrNotExist) {
		return generation{token: "", ok: true}
	}
	if err != nil {
		return generation{}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, generationLen+1))
	if err != nil || !validToken(string(b)) {
		return generation{}
	}
	return generation{token: string(b), ok: true}
}

func newToken() (string, error) {
	var b [generationLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// writeAtomic writes data to dir/name through a synced temp file and a rename, so a
// reader sees the old content or the new, never a part.
func writeAtomic(dir, name string, data []byte) (err error) {
	tmp, err := os.CreateTemp(dir, name+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			_ = os.Remove(tmp.Name()) // best effort: err is the failure to report
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, name))
}

// InvalidateCache advances the generation token and deletes the cached snapshot, so
// no snapshot produced before this call can be served or published afterwards.
// package_install calls it BEFORE an installer starts and does not start the
// installer when it fails. It waits for the cache lock at most lockTimeout.
func InvalidateCache(dataDir string) error { return invalidateCache(dataDir, lockTimeout) }

// invalidateCache is InvalidateCache waiting at most timeout for the lock (a parameter
// so tests of a held lock need not wait the full 5 s, and write no package state).
func invalidateCache(dataDir string, timeout time.Duration) error {
	if dataDir == "" {
		return fmt.Errorf("environment cache invalidation: no data directory")
	}
	l, err := acquireLock(dataDir, timeout)
	if err != nil {
		return fmt.Errorf("environment cache invalidation: %w", err)
	}
	defer l.Unlock()
	tok, err := newToken()
	if err != nil {
		return fmt.Errorf("environment cache invalidation: %w", err)
	}
	if err := writeAtomic(dataDir, generationFileName, []byte(tok)); err != nil {
		return fmt.Errorf("environment cache invalidation: writing the generation: %w", err)
	}
	if err := os.Remove(filepath.Join(dataDir, cacheFileName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("environment cache invalidation: removing the snapshot: %w", err)
	}
	return nil
}
