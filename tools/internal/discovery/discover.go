package discovery

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/windows-dev-agent/wda/internal/proc"
)

// Options configure one discovery. Zero values mean: no cache (empty DataDir), the
// process environment, the real process runner, the wall clock, warnings to stderr,
// and this platform's producers.
type Options struct {
	DataDir string
	Getenv  func(string) string
	Runner  proc.Runner
	Now     func() time.Time
	Logger  *slog.Logger
	// Producers replaces the platform producers (tests, embedders).
	Producers []Producer
	// LockTimeout bounds waiting for the cache lock; zero is 5 s.
	LockTimeout time.Duration
}

func (o *Options) fill() {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Runner == nil {
		o.Runner = DefaultRunner
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if o.LockTimeout == 0 {
		o.LockTimeout = lockTimeout
	}
}

// Result is one discovery: the snapshot, whether a process was actually launched
// (false on a cache hit and after a launch refusal) and whether it came from cache.
type Result struct {
	Snapshot         Snapshot
	ExecutionStarted bool
	CacheHit         bool
}

// Status is "ok" when the snapshot succeeded, else "degraded".
func (r Result) Status() string {
	if r.Snapshot.Success {
		return "ok"
	}
	return "degraded"
}

// Discover returns the environment snapshot, from the cache when it is fresh and its
// generation is established, otherwise by running the producers (concurrently) and
// publishing the result under the generation rules. It always returns the canonical
// shape: anything unexpected becomes a degraded fallback snapshot.
func Discover(ctx context.Context, opts Options, force bool) (res Result) {
	opts.fill()
	started := false
	defer func() {
		if r := recover(); r != nil {
			res = Result{Snapshot: Fallback(opts.Now(), fmt.Sprintf("Unexpected discovery failure: %v", r)), ExecutionStarted: started}
		}
	}()
	var c *cache
	if opts.DataDir != "" {
		c = &cache{dir: opts.DataDir, now: opts.Now, log: opts.Logger, lockTimeout: opts.LockTimeout}
	}
	return discover(ctx, opts, c, force, &started)
}

func discover(ctx context.Context, opts Options, c *cache, force bool, started *bool) Result {
	expected, usable := "", false
	if c != nil {
		var hit *Snapshot
		hit, expected, usable = c.begin(force)
		if hit != nil {
			return Result{Snapshot: *hit, CacheHit: true}
		}
	}
	producers := opts.Producers
	if producers == nil {
		producers = platformProducers(opts)
	}
	facts := runAll(ctx, producers)
	snap, launched := Assemble(opts.Now(), facts...)
	*started = launched
	if usable {
		c.publish(snap, expected)
	}
	return Result{Snapshot: snap, ExecutionStarted: launched}
}
