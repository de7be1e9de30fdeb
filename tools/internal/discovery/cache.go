package discovery

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"
)

// Cache limits (docs/discovery.md, "The cache").
const (
	cacheFileName = "environment.json"
	CacheTTL      = 300 * time.Second
	CacheMaxBytes = 1 << 20
)

// cache is the data-dir snapshot cache. The file holds exactly the snapshot JSON that
// env_inspect returns (derived keys included); it is not a second format.
type cache struct {
	dir         string
	now         func() time.Time
	log         *slog.Logger
	lockTimeout time.Duration
	// Test seams: called between the steps of docs/discovery.md, "Publication".
	beforeRename, afterRename func()
}

func (c *cache) path() string { return filepath.Join(c.dir, cacheFileName) }

// begin is step 1 of docs/discovery.md, "Discover algorithm": under the lock, read the
// generation and, unless force, try the cache. usable is false when the lock or the
// generation is not established; then nothing is read and nothing will be published.
func (c *cache) begin(force bool) (hit *Snapshot, expected string, usable bool) {
	l, err := acquireLock(c.dir, c.lockTimeout)
	if err != nil {
		c.log.Warn("environment cache unusable for this discovery", "error", err)
		return nil, "", false
	}
	defer l.Unlock()
	g := readGeneration(c.dir)
	if !g.ok {
		c.log.Warn("environment cache generation is not established; the cache is bypassed")
		return nil, "", false
	}
	if !force {
		if s, err := c.read(); err == nil {
			return &s, g.token, true
		} else if !errors.Is(err, errMiss) {
			c.log.Warn("environment cache miss", "error", err)
		}
	}
	return nil, g.token, true
}

var errMiss = errors.New("cache miss")

// read is the bounded read of docs/discovery.md, "Read path": stat for size and mtime
// (TTL is measured from the mtime, not the timestamp inside), read at most the cap,
// re-check, parse.
func (c *cache) read() (Snapshot, error) {
	f, err := os.Open(c.path())
	if errors.Is(err, os.ErrNotExist) {
		return Snapshot{}, errMiss
	}
	if err != nil {
		return Snapshot{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Snapshot{}, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > CacheMaxBytes {
		return Snapshot{}, fmt.Errorf("cache file is not a regular file of at most %d bytes", CacheMaxBytes)
	}
	if age := c.now().Sub(fi.ModTime()); age > CacheTTL || age < -CacheTTL {
		return Snapshot{}, errMiss
	}
	b, err := io.ReadAll(io.LimitReader(f, CacheMaxBytes+1))
	if err != nil {
		return Snapshot{}, err
	}
	if len(b) > CacheMaxBytes {
		return Snapshot{}, fmt.Errorf("cache file grew past %d bytes while reading", CacheMaxBytes)
	}
	// A file of another schema (an older build's) lacks this schema's keys, which would
	// read as unknown: it is a miss, not a snapshot (docs/discovery.md, "Read path").
	var v struct {
		SchemaVersion int `json:"schema_version"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return Snapshot{}, err
	}
	if v.SchemaVersion != SchemaVersion {
		return Snapshot{}, fmt.Errorf("cache file has schema_version %d, not %d", v.SchemaVersion, SchemaVersion)
	}
	return Parse(b)
}

// publish is step 3: under the lock, write the snapshot only if the generation is
// still the one read before producing; re-check before and after the rename, and
// remove anything an invalidation raced with. Failures only log.
func (c *cache) publish(s Snapshot, expected string) {
	l, err := acquireLock(c.dir, c.lockTimeout)
	if err != nil {
		c.log.Warn("environment cache not published", "error", err)
		return
	}
	defer l.Unlock()
	same := func() bool { g := readGeneration(c.dir); return g.ok && g.token == expected }
	if !same() {
		c.log.Info("environment cache not published: the generation changed during discovery")
		return
	}
	b, err := json.Marshal(s)
	if err != nil || len(b) > CacheMaxBytes {
		c.log.Warn("environment cache not published: snapshot does not serialize within the cap", "error", err, "bytes", len(b))
		return
	}
	tmp, err := os.CreateTemp(c.dir, cacheFileName+".*.tmp")
	if err != nil {
		c.log.Warn("environment cache not published", "error", err)
		return
	}
	published := false
	defer func() {
		if !published {
			tmp.Close()
			_ = os.Remove(tmp.Name()) // best effort: the reason was already logged
		}
	}()
	if _, err := tmp.Write(b); err != nil {
		c.log.Warn("environment cache not published", "error", err)
		return
	}
	if err := tmp.Sync(); err != nil {
		c.log.Warn("environment cache not published", "error", err)
		return
	}
	if err := tmp.Close(); err != nil {
		c.log.Warn("environment cache not published", "error", err)
		return
	}
	if c.beforeRename != nil {
		c.beforeRename()
	}
	if !same() {
		c.log.Info("environment cache not published: the generation changed before the rename")
		return
	}
	if err := os.Rename(tmp.Name(), c.path()); err != nil {
		c.log.Warn("environment cache not published", "error", err)
		return
	}
	published = true
	if c.afterRename != nil {
		c.afterRename()
	}
	if !same() {
		c.log.Info("environment cache withdrawn: the generation changed after the rename")
		if err := os.Remove(c.path()); err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.log.Warn("environment cache could not be withdrawn", "error", err)
		}
	}
}
