package discovery

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/windows-dev-agent/wda/internal/testkit"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// env is a data dir, a clock and a producer that counts runs and reports a launch.
type env struct {
	dir   string
	clk   *testkit.Clock
	prod  staticProducer
	label string
}

func newEnv(t *testing.T) *env {
	e := &env{dir: t.TempDir(), clk: testkit.NewClock(time.Now())}
	n := 0
	var mu sync.Mutex
	e.prod = newStatic("test", func() Facts {
		mu.Lock()
		n++
		label := e.label
		mu.Unlock()
		return Facts{System: &System{OSName: "run " + label + string(rune('0'+n))}, ExecutionStarted: true}
	})
	return e
}

func (e *env) opts() Options {
	return Options{DataDir: e.dir, Now: e.clk.Now, Logger: quiet, Producers: []Producer{e.prod}, LockTimeout: 50 * time.Millisecond}
}

func (e *env) discover(t *testing.T, force bool) Result {
	t.Helper()
	return Discover(t.Context(), e.opts(), force)
}

func (e *env) cachePath() string { return filepath.Join(e.dir, cacheFileName) }
func (e *env) genPath() string   { return filepath.Join(e.dir, generationFileName) }

func (e *env) setMtime(t *testing.T, age time.Duration) {
	t.Helper()
	m := e.clk.Now().Add(-age)
	if err := os.Chtimes(e.cachePath(), m, m); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

func TestCacheHitMissAndForce(t *testing.T) {
	e := newEnv(t)
	r1 := e.discover(t, false)
	if !r1.ExecutionStarted || r1.CacheHit || e.prod.count() != 1 {
		t.Fatalf("first call: %+v runs %d", r1, e.prod.count())
	}
	// docs/discovery.md, "The cache": the cached file content equals the returned
	// snapshot exactly.
	raw, err := os.ReadFile(e.cachePath())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(r1.Snapshot)
	if !bytes.Equal(raw, want) {
		t.Fatalf("cache file differs from the returned snapshot:\n%s\n%s", raw, want)
	}
	// docs/discovery.md, "Read path": a second call within 5 minutes does not run the
	// producer.
	e.setMtime(t, 299*time.Second)
	r2 := e.discover(t, false)
	if r2.ExecutionStarted || !r2.CacheHit || e.prod.count() != 1 {
		t.Fatalf("second call: %+v runs %d", r2, e.prod.count())
	}
	if diff := cmp.Diff(r1.Snapshot, r2.Snapshot); diff != "" {
		t.Fatalf("cached snapshot (-want +got):\n%s", diff)
	}
	// docs/discovery.md, "Discover algorithm": force_refresh always runs and still
	// publishes.
	r3 := e.discover(t, true)
	if !r3.ExecutionStarted || r3.CacheHit || e.prod.count() != 2 {
		t.Fatalf("forced call: %+v runs %d", r3, e.prod.count())
	}
	raw, _ = os.ReadFile(e.cachePath())
	if !strings.Contains(string(raw), r3.Snapshot.System.OSName) {
		t.Fatalf("forced result not published: %s", raw)
	}
	// docs/discovery.md, "Read path": older than 300 s by mtime is a miss.
	e.setMtime(t, 301*time.Second)
	if r := e.discover(t, false); r.CacheHit || e.prod.count() != 3 {
		t.Fatalf("stale cache served: %+v", r)
	}
}

func TestCacheTTLUsesMtimeNotTimestamp(t *testing.T) {
	e := newEnv(t)
	e.discover(t, false)
	e.clk.Advance(time.Hour) // the timestamp inside is now an hour old...
	e.setMtime(t, time.Second)
	if r := e.discover(t, false); !r.CacheHit { // ...but the file is fresh
		t.Fatal("fresh mtime must hit")
	}
}

func TestCacheTooLargeOrBrokenIsAMiss(t *testing.T) {
	for name, content := range map[string][]byte{
		"oversize": append([]byte(`{"timestamp":"2026-11-29T10:30:00Z","success":true,"errors":["`), append(bytes.Repeat([]byte("x"), CacheMaxBytes), []byte(`"]}`)...)...),
		"garbage":  []byte("{not json"),
		"no time":  []byte(`{"schema_version":2,"success":true}`),
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			if err := os.WriteFile(e.cachePath(), content, 0o600); err != nil {
				t.Fatal(err)
			}
			if r := e.discover(t, false); r.CacheHit || e.prod.count() != 1 {
				t.Fatalf("bad cache served: %+v", r)
			}
		})
	}
}

// TestCacheOfAnotherSchemaIsAMiss: a fresh cache file written by a build with another
// snapshot schema (version 1 had processor_count and docker_available) is not served:
// its missing keys would read as unknown for five minutes.
func TestCacheOfAnotherSchemaIsAMiss(t *testing.T) {
	for name, version := range map[string]string{"version 1": `1`, "absent": ``, "future": `3`} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			field := ""
			if version != "" {
				field = `"schema_version":` + version + `,`
			}
			content := `{` + field + `"timestamp":"2026-11-29T10:30:00Z","success":true,"errors":[],"system":{"os_name":"old","processor_count":1}}`
			if err := os.WriteFile(e.cachePath(), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			e.setMtime(t, time.Second)
			if r := e.discover(t, false); r.CacheHit || e.prod.count() != 1 {
				t.Fatalf("a cache of schema %q was served: %+v", version, r)
			}
		})
	}
	e := newEnv(t)
	e.discover(t, false)
	e.setMtime(t, time.Second)
	if r := e.discover(t, false); !r.CacheHit {
		t.Fatal("a cache of this schema must hit")
	}
}

func TestGenerationTokenReading(t *testing.T) {
	cases := []struct {
		name    string
		content []byte // nil = absent
		ok      bool
		token   string
	}{
		{"absent is the baseline", nil, true, ""},
		{"valid", []byte("0123456789abcdef0123456789abcdef"), true, "0123456789abcdef0123456789abcdef"},
		{"empty", []byte(""), false, ""},
		{"unknown", []byte("unknown"), false, ""},
		{"non-hex", bytes.Repeat([]byte("g"), 32), false, ""},
		{"upper-case hex", bytes.Repeat([]byte("A"), 32), false, ""},
		{"33 chars", bytes.Repeat([]byte("a"), 33), false, ""},
		{"31 chars", bytes.Repeat([]byte("a"), 31), false, ""},
		{"non-ASCII", bytes.Repeat([]byte{0xff}, 32), false, ""},
		{"trailing newline", []byte("0123456789abcdef0123456789abcdef\n"), false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.content != nil {
				if err := os.WriteFile(filepath.Join(dir, generationFileName), c.content, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			g := readGeneration(dir)
			if g.ok != c.ok || g.token != c.token {
				t.Fatalf("readGeneration = %+v, want ok=%v token=%q", g, c.ok, c.token)
			}
		})
	}
	t.Run("unreadable (a directory)", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, generationFileName), 0o700); err != nil {
			t.Fatal(err)
		}
		if g := readGeneration(dir); g.ok {
			t.Fatalf("directory generation read as %+v", g)
		}
	})
}

func TestUnestablishedGenerationBypassesCache(t *testing.T) {
	// docs/discovery.md, "Generation token": an existing fresh cache is neither read nor
	// overwritten, no cache file is created, and fresh data is returned.
	e := newEnv(t)
	e.discover(t, false)
	before, _ := os.ReadFile(e.cachePath())
	if err := os.WriteFile(e.genPath(), []byte("unknown"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.discover(t, false)
	if r.CacheHit || e.prod.count() != 2 {
		t.Fatalf("cache read under an unestablished generation: %+v", r)
	}
	after, _ := os.ReadFile(e.cachePath())
	if !bytes.Equal(before, after) {
		t.Fatal("cache overwritten under an unestablished generation")
	}
	e2 := newEnv(t)
	if err := os.WriteFile(e2.genPath(), []byte(""), 0o600); err != nil {
		t.Fatal(err)
	}
	e2.discover(t, false)
	if exists(e2.cachePath()) {
		t.Fatal("cache created under an unestablished generation")
	}
}

func tmpLeftovers(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, cacheFileName+".*.tmp"))
	return m
}

func TestGenerationChangeDuringPublication(t *testing.T) {
	for _, step := range []string{"before rename", "after rename", "during produce"} {
		t.Run(step, func(t *testing.T) {
			e := newEnv(t)
			c := &cache{dir: e.dir, now: e.clk.Now, log: quiet, lockTimeout: time.Second}
			invalidate := func() {
				// Another writer replaces the token without our lock (the race the
				// re-checks exist for).
				tok, _ := newToken()
				if err := os.WriteFile(e.genPath(), []byte(tok), 0o600); err != nil {
					t.Error(err)
				}
			}
			switch step {
			case "before rename":
				c.beforeRename = invalidate
			case "after rename":
				c.afterRename = invalidate
			}
			_, expected, usable := c.begin(false)
			if !usable || expected != "" {
				t.Fatalf("begin: %q %v", expected, usable)
			}
			s, _ := Assemble(e.clk.Now(), e.prod.Produce(t.Context()))
			if step == "during produce" {
				if err := InvalidateCache(e.dir); err != nil {
					t.Fatal(err)
				}
			}
			c.publish(s, expected)
			if exists(e.cachePath()) {
				t.Fatal("a snapshot produced under an older generation was published")
			}
			if l := tmpLeftovers(t, e.dir); len(l) != 0 {
				t.Fatalf("temp files left: %v", l)
			}
		})
	}
}

func TestInvalidateCache(t *testing.T) {
	e := newEnv(t)
	e.discover(t, false)
	if err := InvalidateCache(e.dir); err != nil {
		t.Fatal(err)
	}
	g := readGeneration(e.dir)
	if !g.ok || !validToken(g.token) || exists(e.cachePath()) {
		t.Fatalf("after invalidation: gen %+v cache exists %v", g, exists(e.cachePath()))
	}
	// A second invalidation advances the token again; a missing cache is fine.
	if err := InvalidateCache(e.dir); err != nil {
		t.Fatal(err)
	}
	if g2 := readGeneration(e.dir); g2.token == g.token {
		t.Fatal("the generation did not advance")
	}
	// The next discovery runs and publishes under the new generation.
	if r := e.discover(t, false); r.CacheHit || !exists(e.cachePath()) {
		t.Fatalf("after invalidation: %+v", r)
	}
	if r := e.discover(t, false); !r.CacheHit {
		t.Fatal("the new generation's cache must be served")
	}
	// A data dir that is a file cannot be invalidated: an error, so no install starts.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := InvalidateCache(file); err == nil {
		t.Fatal("invalidating a non-directory must fail")
	}
	if err := InvalidateCache(""); err == nil {
		t.Fatal("invalidating without a data dir must fail")
	}
}

func TestLockFailures(t *testing.T) {
	// docs/discovery.md, "Locking": a lock held elsewhere makes the read path return
	// fresh data without caching, and invalidation fail.
	e := newEnv(t)
	e.discover(t, false)
	before, _ := os.ReadFile(e.cachePath())
	held, err := acquireLock(e.dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	r := e.discover(t, false)
	if r.CacheHit || e.prod.count() != 2 {
		t.Fatalf("locked cache was read: %+v", r)
	}
	after, _ := os.ReadFile(e.cachePath())
	if !bytes.Equal(before, after) {
		t.Fatal("published while the lock was held")
	}
	if err := invalidateCache(e.dir, 20*time.Millisecond); err == nil {
		t.Fatal("invalidation must fail while the lock is held")
	}
	held.Unlock()
	if err := InvalidateCache(e.dir); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

func TestPublishSkippedWhenLockLost(t *testing.T) {
	e := newEnv(t)
	c := &cache{dir: e.dir, now: e.clk.Now, log: quiet, lockTimeout: 20 * time.Millisecond}
	_, expected, usable := c.begin(false)
	if !usable {
		t.Fatal("cache unusable")
	}
	held, err := acquireLock(e.dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock()
	s, _ := Assemble(e.clk.Now())
	c.publish(s, expected)
	if exists(e.cachePath()) || len(tmpLeftovers(t, e.dir)) != 0 {
		t.Fatal("published without the lock")
	}
}

func TestInvalidatedSnapshotIsNeverServed(t *testing.T) {
	// Two refreshers and one invalidator: whatever the interleaving, after the
	// invalidation returns no snapshot produced before it is served. Producers block
	// on channels, so the interleaving is forced without sleeps.
	e := newEnv(t)
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	var mu sync.Mutex
	gen := 0
	blocking := newStatic("slow", func() Facts {
		mu.Lock()
		g := gen
		mu.Unlock()
		started <- struct{}{}
		<-release
		return Facts{System: &System{OSName: "generation " + string(rune('0'+g))}}
	})
	opts := e.opts()
	opts.Producers = []Producer{blocking}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); Discover(t.Context(), opts, true) }()
	}
	<-started
	<-started
	if err := InvalidateCache(e.dir); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	gen = 1
	mu.Unlock()
	close(release)
	wg.Wait()
	if exists(e.cachePath()) {
		raw, _ := os.ReadFile(e.cachePath())
		t.Fatalf("a pre-invalidation snapshot was published: %s", raw)
	}
	opts.Producers = []Producer{newStatic("fresh", func() Facts { return Facts{System: &System{OSName: "generation 1"}} })}
	if r := Discover(t.Context(), opts, false); r.CacheHit || r.Snapshot.System.OSName != "generation 1" {
		t.Fatalf("served %+v", r)
	}
}
