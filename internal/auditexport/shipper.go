package auditexport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"

	"github.com/windows-dev-agent/wda/internal/audit"
	"github.com/windows-dev-agent/wda/internal/platform/filelock"
)

// Defaults of Options (docs/telemetry.md, "Failure behaviour").
const (
	DefaultPoll         = time.Second
	DefaultMinBackoff   = time.Second
	DefaultMaxBackoff   = 5 * time.Minute
	DefaultStandby      = time.Minute
	DefaultFlushTimeout = 3 * time.Second
	DefaultMaxBatch     = 512
)

// Options configure a Shipper. Exporter and DataDir are required; the rest default.
type Options struct {
	DataDir  string
	Exporter sdklog.Exporter
	Resource *resource.Resource
	// Warn reports trouble (collector down, a gap, a bad cursor) once per change of
	// state; nil discards.
	Warn func(msg string)
	// After is time.After; tests give a clock of their own.
	After func(time.Duration) <-chan time.Time
	Now   func() time.Time
	// Poll is the wait between passes while the collector answers; backoff doubles
	// from MinBackoff to MaxBackoff while it does not.
	Poll, MinBackoff, MaxBackoff time.Duration
	// Standby is one blocking wait for the export lock held by another process.
	Standby time.Duration
	// FlushTimeout bounds the last pass at shutdown.
	FlushTimeout time.Duration
	MaxBatch     int
}

// Shipper exports the audit log of one data directory (docs/telemetry.md).
type Shipper struct {
	o          Options
	lockPath   string
	cursorPath string
	provider   *sdklog.LoggerProvider
	logger     otellog.Logger
	coll       *collect
}

// New returns a Shipper; Run starts it.
func New(o Options) *Shipper {
	if o.After == nil {
		o.After = time.After
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	o.Poll = orDefault(o.Poll, DefaultPoll)
	o.MinBackoff = orDefault(o.MinBackoff, DefaultMinBackoff)
	o.MaxBackoff = orDefault(o.MaxBackoff, DefaultMaxBackoff)
	o.Standby = orDefault(o.Standby, DefaultStandby)
	o.FlushTimeout = orDefault(o.FlushTimeout, DefaultFlushTimeout)
	if o.MaxBatch <= 0 {
		o.MaxBatch = DefaultMaxBatch
	}
	if o.Resource == nil {
		o.Resource = resource.Empty()
	}
	s := &Shipper{o: o, coll: &collect{}}
	s.lockPath, s.cursorPath = audit.ShipPaths(o.DataDir)
	// The SDK's logger gives each record the resource and scope; the collecting
	// processor hands them back so that the export is one synchronous call whose
	// answer decides whether the cursor moves (a batch processor would acknowledge
	// before the collector did).
	s.provider = sdklog.NewLoggerProvider(sdklog.WithResource(o.Resource), sdklog.WithProcessor(s.coll))
	s.logger = s.provider.Logger(ScopeName)
	return s
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Run exports until ctx ends: it waits for the export lock (another server holding it
// exports for everyone; this one stands by and takes over when that one exits), then
// passes over the log every Poll, backing off while the collector does not answer.
// When ctx ends it makes one last pass bounded by FlushTimeout, shuts the exporter
// down and returns.
func (s *Shipper) Run(ctx context.Context) {
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), s.o.FlushTimeout)
		defer cancel()
		_ = s.o.Exporter.Shutdown(sctx)
	}()
	lock := s.acquire(ctx)
	if lock == nil {
		return
	}
	defer lock.Unlock()
	s.shipWhileHeld(ctx)
}

// acquire waits for the export lock; nil when ctx ended first.
func (s *Shipper) acquire(ctx context.Context) *filelock.Lock {
	backoff := time.Duration(0)
	for {
		if err := os.MkdirAll(s.o.DataDir, 0o700); err != nil {
			s.o.Warn(fmt.Sprintf("audit export: data directory: %v", err))
		}
		type result struct {
			l   *filelock.Lock
			err error
		}
		got := make(chan result, 1)
		go func() {
			l, err := filelock.Acquire(s.lockPath, filelock.Exclusive, s.o.Standby)
			got <- result{l, err}
		}()
		select {
		case <-ctx.Done():
			// The abandoned wait gives the lock back as soon as it is granted.
			go func() {
				if r := <-got; r.l != nil {
					r.l.Unlock()
				}
			}()
			return nil
		case r := <-got:
			switch {
			case r.err == nil:
				return r.l
			case errors.Is(r.err, filelock.ErrTimeout):
				continue // another server exports; keep standing by
			}
			backoff = nextBackoff(backoff, s.o.MinBackoff, s.o.MaxBackoff)
			s.o.Warn(fmt.Sprintf("audit export: export lock: %v (retrying in %v)", r.err, backoff))
			select {
			case <-ctx.Done():
				return nil
			case <-s.o.After(backoff):
			}
		}
	}
}

func nextBackoff(cur, lo, hi time.Duration) time.Duration {
	if cur <= 0 {
		return lo
	}
	return min(cur*2, hi)
}

// shipWhileHeld passes over the log until ctx ends, then flushes.
func (s *Shipper) shipWhileHeld(ctx context.Context) {
	backoff := time.Duration(0)
	failing := false
	for {
		_, err := s.step(ctx)
		if ctx.Err() != nil {
			break
		}
		wait := s.o.Poll
		if err != nil {
			backoff = nextBackoff(backoff, s.o.MinBackoff, s.o.MaxBackoff)
			wait = backoff
			if !failing {
				s.o.Warn(fmt.Sprintf("audit export: %v; the records wait in the audit log and are sent when the collector answers", err))
			}
			failing = true
		} else {
			if failing {
				s.o.Warn("audit export: the collector answers again; waiting records were sent")
			}
			failing, backoff = false, 0
		}
		select {
		case <-ctx.Done():
		case <-s.o.After(wait):
			continue
		}
		break
	}
	fctx, cancel := context.WithTimeout(context.Background(), s.o.FlushTimeout)
	defer cancel()
	if _, err := s.step(fctx); err != nil {
		s.o.Warn(fmt.Sprintf("audit export: at shutdown: %v; the records wait in the audit log for the next server", err))
	}
}

// Stats is what one pass did.
type Stats struct {
	Exported int   // audit records the collector acknowledged
	Skipped  int   // lines that are not audit records
	GapBytes int64 // -1: no gap; else at least this many bytes of records were discarded unexported
}

// step passes over the log once: from the cursor to the last whole line, in batches of
// at most MaxBatch records, each exported and acknowledged before the cursor moves past
// it. The caller holds the export lock.
func (s *Shipper) step(ctx context.Context) (Stats, error) {
	st := Stats{GapBytes: -1}
	cur, err := readCursor(s.cursorPath)
	if err != nil {
		return st, err
	}
	raw, err := audit.OpenRetained(s.o.DataDir)
	if err != nil {
		return st, err
	}
	segs := make([]segment, len(raw))
	for i, r := range raw {
		defer r.File.Close()
		h, err := headOf(r)
		if err != nil {
			return st, fmt.Errorf("reading the audit log: %w", err)
		}
		segs[i] = segment{Segment: r, head: h}
	}
	if len(segs) == 0 {
		return st, nil
	}
	seg, off := 0, int64(0)
	if cur.Head != "" {
		found := -1
		for i, sg := range segs {
			if sg.head == cur.Head {
				found = i
			}
		}
		switch {
		case found >= 0 && cur.Sealed:
			seg, off = found+1, 0
		case found >= 0:
			seg, off = found, min(cur.Offset, segs[found].Size)
		case !cur.Sealed:
			// The cursor's segment was discarded by rotation, which happens once it
			// holds SegmentLimit bytes: at least the rest of it is lost.
			st.GapBytes = max(int64(audit.SegmentLimit)-cur.Offset, 0)
		}
	}
	var batch []otellog.Record
	gapPending := st.GapBytes >= 0
	if gapPending {
		batch = append(batch, gapRecord(st.GapBytes, s.o.Now()))
	}
	flush := func(pos Cursor) error {
		if len(batch) > 0 {
			n := len(batch)
			if gapPending {
				n-- // the gap record
			}
			if err := s.export(ctx, batch); err != nil {
				return err
			}
			gapPending = false
			st.Exported += n
			batch = batch[:0]
		}
		if pos != cur {
			if err := writeCursor(s.cursorPath, pos); err != nil {
				return fmt.Errorf("writing the export cursor: %w", err)
			}
			cur = pos
		}
		return nil
	}
	now := s.o.Now()
	for ; seg < len(segs); seg, off = seg+1, 0 {
		sg := segs[seg]
		last := seg == len(segs)-1
		data, err := readFrom(sg.File, off, sg.Size)
		if err != nil {
			return st, fmt.Errorf("reading the audit log: %w", err)
		}
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				if last {
					break // a record still being written
				}
				i = len(data) - 1 // a torn end of a segment that is never written again
			}
			line := data[:i+1]
			data, off = data[i+1:], off+int64(i+1)
			if t := bytes.TrimSpace(line); len(t) > 0 {
				if r, ok := audit.ParseRecord(t); ok {
					batch = append(batch, LogRecord(r, now))
				} else {
					st.Skipped++
				}
			}
			if len(batch) >= s.o.MaxBatch {
				if err := flush(position(segs, seg, off)); err != nil {
					return st, err
				}
			}
		}
		if err := flush(position(segs, seg, off)); err != nil {
			return st, err
		}
	}
	return st, nil
}

// position is the cursor for offset off of segment i: the start of the next segment once
// a finished segment has been read to its end.
func position(segs []segment, i int, off int64) Cursor {
	if i < len(segs)-1 && off >= segs[i].Size {
		if segs[i+1].head != "" {
			return Cursor{Version: cursorVersion, Head: segs[i+1].head}
		}
		return Cursor{Version: cursorVersion, Head: segs[i].head, Offset: off, Sealed: true}
	}
	return Cursor{Version: cursorVersion, Head: segs[i].head, Offset: off}
}

func readFrom(f *os.File, off, size int64) ([]byte, error) {
	if off >= size {
		return nil, nil
	}
	buf := make([]byte, size-off)
	n, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// export sends recs through the SDK's logger (which adds the resource and scope) and
// the exporter, and returns once the collector answered.
func (s *Shipper) export(ctx context.Context, recs []otellog.Record) error {
	for i := range recs {
		s.logger.Emit(ctx, recs[i])
	}
	out := s.coll.take()
	if err := s.o.Exporter.Export(ctx, out); err != nil {
		return fmt.Errorf("exporting %d audit records: %w", len(out), err)
	}
	return nil
}

// collect is a Processor that keeps what is emitted for export to take.
type collect struct {
	mu   sync.Mutex
	recs []sdklog.Record
}

func (c *collect) OnEmit(_ context.Context, r *sdklog.Record) error {
	c.mu.Lock()
	c.recs = append(c.recs, r.Clone())
	c.mu.Unlock()
	return nil
}

func (c *collect) take() []sdklog.Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.recs
	c.recs = nil
	return out
}

func (*collect) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (*collect) Shutdown(context.Context) error                         { return nil }
func (*collect) ForceFlush(context.Context) error                       { return nil }
